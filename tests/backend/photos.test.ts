import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_SIZES } from '../../backend/content/media-refs.ts';
import { cameraPhoto, corruptJpeg, mislabelledJpeg, pixelBomb } from '../../backend/photos.ts';
import { DEFAULT_EDITOR, startContentServer, type ContentServer } from '../../backend/server.ts';
import { fetchAll, gql, loginToken } from './client.ts';
import { readExif, TAGS } from './exif.ts';

/**
 * `content serve --photos` (server.ts `photos`): every image the content names is a camera photo as
 * editors upload it, and `extraMedia` serves a test's own files (a corrupt upload, a pixel bomb) as they
 * are. The photos' base images are generated once per machine (backend/photos.ts), so this file is slow
 * only the first time it runs.
 */

interface Image {
  url: string;
  width: number;
  height: number;
}

async function download(server: ContentServer, url: string): Promise<{ status: number; type: string | null; body: Buffer }> {
  const response = await fetch(`${server.origin}${url}`);
  return { status: response.status, type: response.headers.get('content-type'), body: Buffer.from(await response.arrayBuffer()) };
}

const sha256 = (body: Buffer): string => createHash('sha256').update(body).digest('hex');

describe('camera photos (photos: true)', () => {
  let server: ContentServer;
  beforeAll(async () => {
    server = await startContentServer({ photos: true });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves two news images as distinct 4000×3000 JPEGs of camera size with the GPS position, while the content states the CMS sizes', async () => {
    const { nodes } = await fetchAll<{ slug: string; image: Image | null }>(server, 'newsItems', 'slug image { url width height }');
    const images = nodes.flatMap((n) => (n.image ? [n.image] : []));
    expect(images.length).toBeGreaterThan(10);
    for (const image of images) {
      expect(image.url).toMatch(/^\/media\/news\/[a-z0-9-]+\.jpg$/);
      // What the CMS claims, deliberately not the file's size: the build must read the real one.
      expect({ width: image.width, height: image.height }).toEqual(IMAGE_SIZES.news);
    }
    const [a, b] = await Promise.all(images.slice(0, 2).map((image) => download(server, image.url)));
    for (const file of [a!, b!]) {
      expect(file.status).toBe(200);
      expect(file.type).toBe('image/jpeg');
      expect(file.body.length).toBeGreaterThan(1.5 * 1024 * 1024);
      const meta = await sharp(file.body).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height, upright: (meta.orientation ?? 1) === 1 }).toEqual({
        format: 'jpeg',
        width: 4000,
        height: 3000,
        upright: true,
      });
      const exif = readExif(meta.exif!);
      expect(exif.ifd0.get(TAGS.Make)).toBeTruthy();
      expect(exif.ifd0.get(TAGS.Model)).toBeTruthy();
      expect(exif.ifd0.get(TAGS.Artist)).toBeTruthy();
      expect(exif.exifIfd.get(TAGS.BodySerialNumber)).toMatch(/^\d{6,}$/);
      expect(exif.gps.get(TAGS.GPSLatitudeRef)).toBe('N');
      expect(exif.gps.get(TAGS.GPSLatitude)).toMatch(/^52\/1 22\/1 \d+\/\d+$/);
      expect(exif.gps.get(TAGS.GPSLongitudeRef)).toBe('E');
      expect(exif.gps.get(TAGS.GPSLongitude)).toMatch(/^4\/1 53\/1 \d+\/\d+$/);
    }
    // Two URLs, two files (by content hash), each the same bytes every time it is asked for.
    expect(sha256(a!.body)).not.toBe(sha256(b!.body));
    expect(sha256((await download(server, images[0]!.url)).body)).toBe(sha256(a!.body));
  });

  it("serves a person's photo as a phone's portrait stored sideways (EXIF orientation 6), and a research image in Display P3", async () => {
    const { nodes: people } = await fetchAll<{ photo: Image | null }>(server, 'people', 'photo { url width height }');
    const photo = people.find((p) => p.photo)!.photo!;
    expect(photo.url).toMatch(/^\/media\/people\/[a-z0-9-]+\.jpg$/);
    expect({ width: photo.width, height: photo.height }).toEqual(IMAGE_SIZES.person);
    const portrait = await sharp((await download(server, photo.url)).body).metadata();
    expect({ width: portrait.width, height: portrait.height, orientation: portrait.orientation, shown: portrait.autoOrient }).toEqual({
      width: 4000,
      height: 3000,
      orientation: 6,
      shown: { width: 3000, height: 4000 },
    });
    expect(readExif(portrait.exif!).gps.get(TAGS.GPSLatitude)).toBeTruthy();

    const { nodes: projects } = await fetchAll<{ image: Image }>(server, 'researchProjects', 'image { url width height }');
    const research = await download(server, projects[0]!.image.url);
    expect(research.type).toBe('image/jpeg');
    const meta = await sharp(research.body).metadata();
    expect(meta.icc?.toString('latin1')).toMatch(/P\0?3/);
  });
});

describe('camera photos on a synthetic site (scale and photos)', () => {
  let server: ContentServer;
  beforeAll(async () => {
    server = await startContentServer({ scale: 400, photos: { variants: 2 } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('serves the scaled content whole, its images camera photos', async () => {
    const { nodes } = await fetchAll<{ slug: string; body: string; image: Image | null }>(
      server,
      'newsItems',
      'slug body image { url width height }',
      { first: 500 },
    );
    expect(nodes.length).toBeGreaterThan(200);
    // The scaled entries' fields computed on demand (scale-entries.ts) are all there.
    for (const item of nodes) expect(item.body.length, item.slug).toBeGreaterThan(100);
    const image = nodes.find((n) => n.image)!.image!;
    expect(image.url).toMatch(/^\/media\/news\/[a-z0-9-]+\.jpg$/);
    const file = await download(server, image.url);
    expect(file.type).toBe('image/jpeg');
    expect((await sharp(file.body).metadata()).width).toBe(4000);

    const { nodes: people } = await fetchAll<{ photo: Image | null }>(server, 'people', 'photo { url }');
    const portrait = await download(server, people.find((p) => p.photo)!.photo!.url);
    expect((await sharp(portrait.body).metadata()).orientation).toBe(6);
  });
});

describe('extraMedia', () => {
  let server: ContentServer;
  let dir: string;
  const extra = new Map<string, { contentType: string; body: Buffer }>();
  beforeAll(async () => {
    extra.set('/media/uploads/bomb.png', { contentType: 'image/png', body: await pixelBomb() });
    extra.set('/media/uploads/truncated.jpg', { contentType: 'image/jpeg', body: await corruptJpeg() });
    extra.set('/media/uploads/screenshot.jpg', { contentType: 'image/jpeg', body: await mislabelledJpeg('png') });
    extra.set('/media/uploads/error-page.jpg', { contentType: 'image/jpeg', body: await mislabelledJpeg('html') });
    dir = await mkdtemp(join(tmpdir(), 'photos-test-'));
    const overridesFile = join(dir, 'overrides.json');
    // The sample without photos: an override points one news item's image at a bad upload.
    const { nodes } = await (async () => {
      const probe = await startContentServer();
      try {
        return await fetchAll<{ slug: string }>(probe, 'newsItems', 'slug');
      } finally {
        await probe.close();
      }
    })();
    await writeFile(
      overridesFile,
      JSON.stringify({
        news: [{ slug: nodes[0]!.slug, image: { url: '/media/uploads/bomb.png', alt: 'A photo', width: 1200, height: 675 } }],
      }),
    );
    server = await startContentServer({ extraMedia: extra, overridesFile });
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves each file as it is, at its path and with its type', async () => {
    for (const [path, file] of extra) {
      const served = await download(server, path);
      expect({ path, status: served.status, type: served.type }).toEqual({ path, status: 200, type: file.contentType });
      expect(sha256(served.body), path).toBe(sha256(file.body));
    }
  });

  it('lets an override point an image at such a file', async () => {
    const { nodes } = await fetchAll<{ image: Image | null }>(server, 'newsItems', 'image { url }');
    expect(nodes.map((n) => n.image?.url)).toContain('/media/uploads/bomb.png');
  });

  it("lets an editor's edit name such a file as a file the backend holds, and still refuses one it does not hold", async () => {
    const token = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    const { nodes } = await fetchAll<{ id: string }>(server, 'newsItems', 'id');
    const edit = (url: string) =>
      gql<{ updateContent: { id: string } }>(
        server,
        'mutation($id: ID!, $f: String!) { updateContent(type: "NewsItem", id: $id, fields: $f) { id } }',
        { id: nodes[1]!.id, f: JSON.stringify({ image: { url, alt: 'An upload', width: 1200, height: 675 } }) },
        token,
      );
    expect((await edit('/media/uploads/truncated.jpg')).errors).toBeUndefined();
    expect((await edit('/media/uploads/not-uploaded.jpg')).errors?.[0]?.message).toMatch(/must name a file the backend holds/);
    const { nodes: after } = await fetchAll<{ id: string; image: Image | null }>(server, 'newsItems', 'id image { url }');
    expect(after.find((n) => n.id === nodes[1]!.id)?.image?.url).toBe('/media/uploads/truncated.jpg');
  });

  it('holds the bad files the image pipeline must refuse: a pixel bomb, a truncated JPEG, a PNG and an HTML page named .jpg', async () => {
    const bomb = extra.get('/media/uploads/bomb.png')!.body;
    expect(bomb.length).toBeLessThan(10_000);
    // Its header claims 900 megapixels: sharp's default limit refuses it even for metadata, which reads
    // the header alone once the limit is lifted.
    await expect(sharp(bomb).metadata()).rejects.toThrow(/pixel limit/i);
    await expect(sharp(bomb).toBuffer()).rejects.toThrow(/pixel limit/i);
    expect(await sharp(bomb, { limitInputPixels: false }).metadata()).toMatchObject({ format: 'png', width: 30_000, height: 30_000 });
    const truncated = extra.get('/media/uploads/truncated.jpg')!.body;
    expect(await sharp(truncated).metadata()).toMatchObject({ format: 'jpeg', width: 4000, height: 3000 });
    await expect(sharp(truncated, { failOn: 'truncated' }).toBuffer()).rejects.toThrow();
    expect((await sharp(extra.get('/media/uploads/screenshot.jpg')!.body).metadata()).format).toBe('png');
    await expect(sharp(extra.get('/media/uploads/error-page.jpg')!.body).metadata()).rejects.toThrow(/unsupported image format/i);
  });

  it('each camera photo is its own file, made the same every time', async () => {
    const [a, again, b] = await Promise.all([cameraPhoto('/media/x/a.jpg'), cameraPhoto('/media/x/a.jpg'), cameraPhoto('/media/x/b.jpg')]);
    expect(sha256(a)).toBe(sha256(again));
    expect(sha256(a)).not.toBe(sha256(b));
  });
});

describe('the default sample', () => {
  let server: ContentServer;
  beforeAll(async () => {
    server = await startContentServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('still serves its images as small SVGs', async () => {
    const { nodes } = await fetchAll<{ image: Image | null }>(server, 'newsItems', 'image { url width height }');
    const image = nodes.find((n) => n.image)!.image!;
    expect(image.url).toMatch(/\.svg$/);
    const file = await download(server, image.url);
    expect(file.type).toBe('image/svg+xml');
    expect(file.body.length).toBeLessThan(10_000);
  });
});
