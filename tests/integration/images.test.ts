import { createHash } from 'node:crypto';
import { link, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameraPhoto, corruptJpeg, pixelBomb } from '../../backend/photos.ts';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import type { ImageData } from '../../site/queries/common.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { loginToken } from '../backend/client.ts';
import { updateContent } from '../helpers/content-edits.ts';
import { listFiles, snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * The images of a site whose editors upload camera photos (issue 40): the embedded backend serves every
 * image as a 4000×3000 JPEG with GPS tags, a camera serial and the editor's name (backend/photos.ts). A
 * real `site build` against it, and the files a visitor's browser would get (tests/e2e/images.spec.ts
 * shows them in Chromium).
 */

const EPOCH = '1767225600';
let backend: ContentServer;
let root: string;
let token: string;
const site = () => join(root, 'site');

const build = (args: string[]): Promise<CliResult> =>
  runCli(['build', '--endpoint', backend.url, '--no-report', ...args], { env: { SOURCE_DATE_EPOCH: EPOCH }, timeoutMs: 300_000 });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'images-'));
  await seedBundle(join(root, 'cache'));
  // Two files per kind of photo (landscape, a phone's sideways portrait, Display P3), shared by the
  // sample's 93 images: a cold build encodes six photos, not 93, and every page still shows photos as
  // editors upload them. Each kind keeps two different files, so two uploads of one scene still make two
  // derivative keys. This file encodes each photo three times (the first build, then both shards of a
  // new cache), about 0.8 s of CPU each: four per kind cost some 10 s of CPU more for nothing these tests
  // check (docs/performance.md, the suite's fourth pass).
  backend = await startContentServer({
    photos: { variants: 2 },
    extraMedia: new Map([
      ['/media/uploads/new-photo.jpg', { contentType: 'image/jpeg', body: await cameraPhoto('/media/uploads/new-photo.jpg') }],
      ['/media/uploads/bomb.png', { contentType: 'image/png', body: await pixelBomb() }],
      ['/media/uploads/truncated.jpg', { contentType: 'image/jpeg', body: await corruptJpeg() }],
      ['/media/uploads/page.jpg', { contentType: 'image/jpeg', body: Buffer.from('<!doctype html><script>alert(1)</script>') }],
    ]),
  });
  token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
  const first = await build(['--out', site(), '--cache-dir', join(root, 'cache')]);
  expect(first.code, first.stderr).toBe(0);
}, 600_000);

afterAll(async () => {
  await backend?.close();
});

async function derivatives(dir: string): Promise<string[]> {
  return (await listFiles(join(dir, 'media'))).filter((f) => f.startsWith('_img/'));
}

async function newsItem(slug: string): Promise<{ image: ImageData; body: string }> {
  const payload = JSON.parse(await readFile(join(site(), 'news', slug, '_payload.json'), 'utf8')) as {
    data: { newsItem: { image: ImageData; body: string } };
  };
  return payload.data.newsItem;
}

/** The camera's strings in every sample photo's EXIF (its artist, copyright, body serial number and time), and EXIF's own header. */
const CAMERA_TEXT = /Jane Editor|Institute press office|082021004518|2026:03:14 09:30:00|Exif\0\0/;

describe('a build of camera photos', () => {
  it('publishes only derivatives: no original photo, no metadata, sRGB, never wider than the source', async () => {
    const media = await listFiles(join(site(), 'media'));
    // Every image of the sample is a photo now: the originals, with their GPS tags, are never published.
    expect(media.filter((f) => /\.jpe?g$/.test(f) && !f.startsWith('_img/'))).toEqual([]);
    const files = await derivatives(site());
    // Six distinct photos (two per kind), eight files each.
    expect(files.length).toBe(6 * 8);
    for (const file of files) {
      const meta = await sharp(join(site(), 'media', file)).metadata();
      expect({
        file,
        exif: meta.exif,
        xmp: meta.xmp,
        iptc: meta.iptc,
        icc: meta.icc,
        space: meta.space,
        orientation: meta.orientation,
      }).toEqual({ file, exif: undefined, xmp: undefined, iptc: undefined, icc: undefined, space: 'srgb', orientation: undefined });
      expect(meta.width).toBeLessThanOrEqual(1600);
      expect(file.slice(file.lastIndexOf('.') + 1)).toBe(meta.format === 'jpeg' ? 'jpg' : meta.format);
      expect(Number(/\/(\d+)\.\w+$/.exec(file)![1])).toBe(meta.width);
    }
    const bytes = await Promise.all(files.map(async (f) => (await readFile(join(site(), 'media', f))).toString('latin1')));
    // What the camera wrote, as the bytes EXIF holds it (backend/photos.ts); a marker of three letters, as
    // 'GPS' was, turns up by chance in megabytes of compressed pixels.
    for (const text of bytes) expect(text).not.toMatch(CAMERA_TEXT);
  });

  it('gives page data the real size (orientation applied), a srcset and a social card', async () => {
    const slug = (await readdir(join(site(), 'news'))).find((name) => !['page', 'category', 'index.html', '_payload.json'].includes(name))!;
    const { image } = await newsItem(slug);
    // The backend claims 1200×675; the photo is 4000×3000.
    expect(image).toMatchObject({ width: 4000, height: 3000 });
    expect(image.url).toMatch(/^\/media\/_img\/[0-9a-f]{20}\/1200\.jpg$/);
    expect(image.sources).toEqual([{ type: 'image/webp', urls: expect.any(Array), widths: [320, 480, 640, 800, 1080, 1280, 1600] }]);
    const html = await readFile(join(site(), 'news', slug, 'index.html'), 'utf8');
    expect(html).toContain(`<meta property="og:image" content="https://institute.example${image.url}">`);
    const social = await sharp(join(site(), image.url)).metadata();
    expect([social.width, social.height, social.format]).toEqual([1200, 900, 'jpeg']);
    // A phone's portrait, stored sideways with EXIF orientation 6, shows upright: taller than wide.
    const people = JSON.parse(await readFile(join(site(), 'about/people/_payload.json'), 'utf8')) as {
      data: { people: { nodes: { photo: ImageData | null }[] } };
    };
    const photo = people.data.people.nodes.find((p) => p.photo)!.photo!;
    expect(photo).toMatchObject({ width: 3000, height: 4000 });
    const portrait = await sharp(join(site(), photo.sources![0]!.urls[0]!)).metadata();
    expect(portrait.height).toBeGreaterThan(portrait.width);
    // Turned, not squeezed: the scene's sky, at the top of the sensor, is on the right once shown upright.
    const { data, info } = await sharp(join(site(), photo.sources![0]!.urls[0]!))
      .resize(80, 80, { fit: 'fill' })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const mean = (x0: number, x1: number): number => {
      let sum = 0;
      for (let y = 0; y < info.height; y++) for (let x = x0; x < x1; x++) sum += data[y * info.width + x]!;
      return sum / ((x1 - x0) * info.height);
    };
    expect(mean(40, 80) - mean(0, 40)).toBeGreaterThan(20);
  });

  it('never publishes a file planted in the cache in place of a derivative (a hard link to a secret, say)', async () => {
    const cache = join(root, 'cache');
    const [key] = (await readdir(join(cache, 'images/derived'))).filter((name) => /^[0-9a-f]{20}$/.test(name));
    const secret = join(root, 'secret.txt');
    await writeFile(secret, 'the build cache key');
    await rm(join(cache, 'images/derived', key!, '800.webp'));
    await link(secret, join(cache, 'images/derived', key!, '800.webp'));
    const out = join(root, 'planted');
    const result = await build(['--out', out, '--cache-dir', cache]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/1 encoded/);
    const published = await readFile(join(out, 'media/_img', key!, '800.webp'));
    expect(published.toString('latin1')).not.toContain('the build cache key');
    expect((await sharp(published).metadata()).format).toBe('webp');
  }, 300_000);

  it('never publishes a file added to a derivative folder, whatever the cache says of its image', async () => {
    const cache = join(root, 'cache');
    const secret = join(root, 'secret-2.txt');
    await writeFile(secret, 'the build cache key');
    // A file the signed manifest does not list, in every folder, and every image said to have transparency
    // (so that pages would name a PNG fallback): neither reaches the output.
    for (const key of (await readdir(join(cache, 'images/derived'))).filter((name) => /^[0-9a-f]{20}$/.test(name))) {
      for (const name of ['1200.png', '4000.png']) await link(secret, join(cache, 'images/derived', key, name)).catch(() => undefined);
    }
    const memoFile = join(cache, 'images/probes.json');
    const memo = JSON.parse(await readFile(memoFile, 'utf8')) as { entries: Record<string, { image: { hasAlpha: boolean } }> };
    for (const entry of Object.values(memo.entries)) entry.image.hasAlpha = true;
    await writeFile(memoFile, JSON.stringify(memo));
    const out = join(root, 'planted-2');
    const result = await build(['--out', out, '--cache-dir', cache]);
    expect(result.code, result.stderr).toBe(0);
    const files = await derivatives(out);
    expect(files.filter((f) => f.endsWith('.png'))).toEqual([]);
    for (const f of files) expect((await readFile(join(out, 'media', f))).toString('latin1')).not.toContain('the build cache key');
  }, 300_000);

  it('makes the same bytes in another build, and in shards that share a new cache', async () => {
    const shards = [join(root, 'shard-1'), join(root, 'shard-2')];
    const cache = join(root, 'shard-cache');
    const results = await Promise.all(shards.map((out, i) => build(['--out', out, '--cache-dir', cache, '--shard', `${i + 1}/2`])));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const merged = await build(['--merge', ...shards, '--out', join(root, 'merged'), '--cache-dir', cache]);
    expect(merged.code, merged.stderr).toBe(0);
    const digest = async (dir: string) =>
      Object.fromEntries(
        await Promise.all(
          (await derivatives(dir)).map(
            async (f) =>
              [
                f,
                createHash('sha256')
                  .update(await readFile(join(dir, 'media', f)))
                  .digest('hex'),
              ] as const,
          ),
        ),
      );
    expect(await digest(join(root, 'merged'))).toEqual(await digest(site()));
  }, 600_000);

  it('encodes only the new photo when an update in place adds one', async () => {
    const slug = (await readdir(join(site(), 'news'))).find((name) => !['page', 'category', 'index.html', '_payload.json'].includes(name))!;
    const id = JSON.parse(await readFile(join(site(), 'news', slug, '_payload.json'), 'utf8')).data.newsItem.id as string;
    await updateContent(backend, token, 'NewsItem', id, {
      image: { url: '/media/uploads/new-photo.jpg', alt: 'A new photo', width: 800, height: 600 },
      body: '<p>Before.</p><figure><img src="/media/uploads/new-photo.jpg" alt="The new photo, inline" width="800" height="600"></figure><p>After, <a href="/media/uploads/new-photo.jpg">the photo itself</a>.</p>',
    });
    const update = await build(['--out', site(), '--cache-dir', join(root, 'cache')]);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stdout).toMatch(/updated in place/);
    expect(update.stdout).toMatch(/\(\d+ images?: 1 encoded, 0 from the cache\)/);
    const { image, body } = await newsItem(slug);
    expect(image).toMatchObject({ alt: 'A new photo', width: 4000, height: 3000 });
    // The same photo inside rich text: the same files, as src, srcset and sizes, with its real size.
    const inline = `<img src="${image.url}" srcset="${image.sources![0]!.urls.map((u, i) => `${u} ${image.sources![0]!.widths[i]}w`).join(', ')}" sizes="(min-width: 52rem) 48rem, calc(100vw - 2.5rem)" alt="The new photo, inline" width="4000" height="3000" loading="lazy" decoding="async" />`;
    expect(body).toContain(inline);
    expect(await readFile(join(site(), 'news', slug, 'index.html'), 'utf8')).toContain(inline);
    for (const url of image.sources![0]!.urls) expect((await sharp(join(site(), url)).metadata()).format).toBe('webp');
    // A link to the photo itself publishes it whole, without what the camera wrote into it.
    const original = await readFile(join(site(), 'media/uploads/new-photo.jpg'));
    const meta = await sharp(original).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, exif: meta.exif, icc: meta.icc }).toEqual({
      format: 'jpeg',
      width: 4000,
      height: 3000,
      exif: undefined,
      icc: undefined,
    });
    // The backend's copy carries them, so the check can see them.
    const upload = Buffer.from(await (await fetch(new URL('/media/uploads/new-photo.jpg', backend.url))).arrayBuffer());
    expect(upload.toString('latin1')).toMatch(CAMERA_TEXT);
    expect(original.toString('latin1')).not.toMatch(CAMERA_TEXT);
  }, 300_000);

  it('fails on a pixel bomb, a truncated photo and a page named .jpg, naming each page, URL and reason; the output stays', async () => {
    const before = await snapshotTree(site());
    const slugs = (await readdir(join(site(), 'news')))
      .filter((name) => !['page', 'category', 'index.html', '_payload.json'].includes(name))
      .slice(1, 4);
    const bad = ['/media/uploads/bomb.png', '/media/uploads/truncated.jpg', '/media/uploads/page.jpg'];
    for (const [i, slug] of slugs.entries()) {
      const id = JSON.parse(await readFile(join(site(), 'news', slug, '_payload.json'), 'utf8')).data.newsItem.id as string;
      await updateContent(backend, token, 'NewsItem', id, { image: { url: bad[i], alt: 'Bad', width: 10, height: 10 } });
    }
    const failed = await build(['--out', site(), '--cache-dir', join(root, 'cache')]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('[PagesFailed]');
    expect(failed.stderr).toMatch(
      new RegExp(
        `/news/${slugs[0]}[\\s\\S]*?/media/uploads/bomb\\.png: 30000×30000 is 900 megapixels, more than --image-max-pixels allows`,
      ),
    );
    expect(failed.stderr).toMatch(/\/media\/uploads\/truncated\.jpg: the file does not decode/);
    expect(failed.stderr).toMatch(/\/media\/uploads\/page\.jpg: the file is not an image the build can read/);
    expect(await snapshotTree(site())).toEqual(before);
  }, 300_000);
});
