import type { S3Client } from '@aws-sdk/client-s3';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { publish, resolvePublishConfig, type PublishResult } from '../../cli/publish/index.ts';
import { bucketSnapshot, S3_ENV, s3Client, startS3Server, writeFakeBuild, type S3TestServer } from '../helpers/s3-server.ts';

/**
 * A bucket of more than 1,000 objects, which S3 lists a page at a time: publish must read every page of
 * the listing to see what is already there. (The test server could not page listings at all before its
 * continuation tokens were fixed in tests/helpers/s3-server.ts, so no test had a bucket this large.)
 */

const MEDIA = 1_500;

describe('site publish to a bucket that lists in pages', () => {
  let s3: S3TestServer;
  let client: S3Client;
  const dirs: string[] = [];
  const run = (n: number): Promise<PublishResult> =>
    publish(resolvePublishConfig({ outDir: dirs[n], bucket: s3.bucket, prefix: 'www', endpointUrl: s3.endpoint }), {
      logger: createMemoryLogger(),
    });

  beforeAll(async () => {
    Object.assign(process.env, S3_ENV);
    s3 = await startS3Server();
    client = s3Client(s3.endpoint);
    const root = await mkdtemp(join(tmpdir(), 'site-publish-large-'));
    for (const n of [1, 2]) {
      dirs[n] = join(root, `build-${n}`);
      await writeFakeBuild(dirs[n]!, n);
      // The same media in both builds, as a site's images are from one build to the next.
      await mkdir(join(dirs[n]!, 'media/bulk'), { recursive: true });
      for (let i = 0; i < MEDIA; i++)
        await writeFile(
          join(dirs[n]!, `media/bulk/${String(i).padStart(4, '0')}.svg`),
          `<svg xmlns="http://www.w3.org/2000/svg"><title>${i}</title></svg>`,
        );
    }
  }, 120_000);
  afterAll(async () => {
    client?.destroy();
    await s3?.stop();
  });

  it('sees every object already there, over every page of the listing: nothing is uploaded twice', async () => {
    const first = await run(1);
    expect(first.uploaded).toBeGreaterThan(MEDIA);
    const stored = Object.keys(await bucketSnapshot(client, s3.bucket, 'www')).length;
    expect(stored).toBeGreaterThan(1_000);
    const again = await run(1);
    expect(again).toMatchObject({ uploaded: 0, deleted: 0 });
    expect(again.unchanged).toBe(stored);
    // The next build shares the media: only its own files go up, and the first build's stay for retention.
    const next = await run(2);
    expect(next.uploaded).toBeLessThan(20);
    expect(next.deleted).toBe(0);
    const after = Object.keys(await bucketSnapshot(client, s3.bucket, 'www'));
    expect(after.length).toBeGreaterThan(stored);
    expect(after.filter((key) => key.startsWith('media/bulk/'))).toHaveLength(MEDIA);
  }, 300_000);
});
