import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraPhoto } from '../../backend/photos.ts';
import { pageImageResolver, PageImageFailed } from '../../cli/content/images/page-images.ts';
import { DEFAULT_IMAGE_WIDTHS } from '../../cli/content/images/image-settings.ts';
import { createMediaCopier } from '../../cli/content/media.ts';
import { startTestServer, type RecordedRequest, type TestServer } from '../helpers/http-server.ts';

/**
 * A photo's download when the backend fails (issue 40 with issue 16.3's retry policy): a real HTTP
 * server on 127.0.0.1 answers 503 twice before the photo, or 404, or hangs.
 */

let backend: TestServer;
let photo: Buffer;
const routes = new Map<string, (req: RecordedRequest, res: ServerResponse) => void>();

beforeAll(async () => {
  photo = await cameraPhoto('/media/faults/photo.jpg');
  backend = await startTestServer((req, res) => {
    const handler = routes.get(req.url);
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
});
afterAll(() => backend?.close());

async function resolveIn(url: string): Promise<unknown> {
  const copier = createMediaCopier({
    origin: backend.url,
    siteDir: await mkdtemp(join(tmpdir(), 'image-faults-')),
    concurrency: 2,
    cacheDir: await mkdtemp(join(tmpdir(), 'image-faults-cache-')),
    retries: 3,
    retryDelayMs: 10,
    timeoutMs: 2_000,
    images: { widths: DEFAULT_IMAGE_WIDTHS, formats: ['webp'], fallbackWidth: 1200, maxPixels: 1e8, service: null },
  });
  try {
    return await pageImageResolver(copier.images!, '100vw')({ image: { url, alt: '', width: 1, height: 1 } });
  } finally {
    copier.stop();
    await copier.done();
  }
}

describe('a photo from a failing backend', () => {
  it('is fetched again after transient failures, and the page gets its real size', async () => {
    let asked = 0;
    routes.set(
      '/media/flaky.jpg',
      (_req, res) => void (++asked <= 2 ? res.writeHead(503).end() : res.writeHead(200, { 'content-type': 'image/jpeg' }).end(photo)),
    );
    expect(await resolveIn('/media/flaky.jpg')).toMatchObject({ image: { width: 4000, height: 3000 } });
    expect(asked).toBe(3);
  });

  it('fails the page, naming the image and what to do, when the backend does not have it or never answers', async () => {
    routes.set('/media/slow.jpg', () => undefined);
    for (const [url, cause] of [
      ['/media/missing.jpg', /^\/media\/missing\.jpg: HTTP 404$/],
      ['/media/slow.jpg', /^\/media\/slow\.jpg: no complete answer within 2000 ms$/],
    ] as const) {
      const failure = await resolveIn(url).then(
        () => null,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(PageImageFailed);
      expect((failure as PageImageFailed).message).toMatch(cause);
      expect((failure as PageImageFailed).fix).toBe('Check that the backend serves this image, or remove it from the content.');
    }
  }, 60_000);
});
