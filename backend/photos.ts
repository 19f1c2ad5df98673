/**
 * Camera photos as editors upload them, for `content serve --photos` (server.ts `photos`, which the
 * media registry turns into `/media/{folder}/{slug}.jpg` paths: content/media-refs.ts): every image
 * of the content becomes a 4000×3000 JPEG of about 4 MB carrying what a camera or phone writes into it
 * (make, model, the editor's name, the body's serial number, GPS position), person photos a phone's
 * portrait stored sideways with EXIF orientation 6, and research images a Display P3 colour profile.
 * The sample's 1–2 kB SVGs made every page look fast; these make the build do the work real content asks.
 *
 * A few base photos are generated once per machine (about 3 s each with sharp) and kept under
 * node_modules/.cache; each media path's bytes are its base with a JPEG comment naming the path, so every
 * URL is a different file (by content hash) at no cost to serve.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** The kinds of base photo. */
export type PhotoKind = 'landscape' | 'portrait' | 'display-p3';

/** A path's camera photo: its base, with a comment naming the path (deterministic). */
export async function cameraPhoto(path: string, kind: PhotoKind = 'landscape'): Promise<Buffer> {
  const base = await basePhoto(kind);
  const comment = Buffer.from(path.slice(0, 60_000), 'utf8');
  const segment = Buffer.alloc(4);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(comment.length + 2, 2);
  // SOI, then the comment, then the rest (EXIF's APP1 and the image) as the camera wrote it.
  return Buffer.concat([base.subarray(0, 2), segment, comment, base.subarray(2)]);
}

/** A small PNG whose header claims 30000×30000 pixels (900 megapixels): a decompression bomb. */
export async function pixelBomb(): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#000' } })
    .png()
    .toBuffer();
  // IHDR is the first chunk: length (4), type (4), width (4), height (4), …, its CRC over type and data.
  png.writeUInt32BE(30_000, 16);
  png.writeUInt32BE(30_000, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** A camera photo cut off half-way, as an interrupted upload leaves it: its header reads, its pixels do not. */
export async function corruptJpeg(): Promise<Buffer> {
  const photo = await cameraPhoto('/media/corrupt.jpg');
  return photo.subarray(0, Math.floor(photo.length / 2));
}

/**
 * A file an editor uploads as `….jpg` that is not a JPEG: a PNG (a screenshot renamed), or an HTML
 * page (what a browser saves when a download fails). Deterministic.
 */
export async function mislabelledJpeg(actually: 'png' | 'html'): Promise<Buffer> {
  if (actually === 'html')
    return Buffer.from('<!doctype html>\n<html><head><title>403 Forbidden</title></head><body><h1>Forbidden</h1></body></html>\n', 'utf8');
  return sharp({ create: { width: 320, height: 240, channels: 3, background: '#3a6ea5' } })
    .png()
    .toBuffer();
}

// --- internal ---

/** Bump when the generator changes: the cached bases are made again. */
const GENERATOR_VERSION = 1;
const CACHE_DIR = join(import.meta.dirname, '..', 'node_modules', '.cache', `camera-photos-v${GENERATOR_VERSION}`);
const bases = new Map<PhotoKind, Promise<Buffer>>();

function basePhoto(kind: PhotoKind): Promise<Buffer> {
  let base = bases.get(kind);
  if (!base) {
    base = (async () => {
      const file = join(CACHE_DIR, `${kind}.jpg`);
      const cached = await readFile(file).catch(() => null);
      if (cached) return cached;
      const made = await generate(kind);
      // Complete or not there: concurrent test processes may race to write it.
      await mkdir(CACHE_DIR, { recursive: true });
      const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
      await writeFile(temp, made);
      await rename(temp, file);
      return made;
    })();
    bases.set(kind, base);
  }
  return base;
}

const WIDTH = 4000;
const HEIGHT = 3000;

/**
 * A landscape scene (sky, hills, shapes) with grain at three scales, so it compresses like a photo of
 * the world and not like a drawing or pure noise: ~3.8 MB at quality 90, a 1,080-wide WebP ~150 kB.
 */
async function generate(kind: PhotoKind): Promise<Buffer> {
  const hue = { landscape: 200, portrait: 25, 'display-p3': 140 }[kind];
  const shapes = Array.from(
    { length: 14 },
    (_, i) =>
      `<ellipse cx="${(i * 137 + hue) % 400}" cy="${170 + ((i * 53) % 130)}" rx="${20 + ((i * 29) % 70)}" ry="${10 + ((i * 17) % 40)}" fill="hsl(${(hue + i * 23) % 360},40%,${25 + ((i * 7) % 40)}%)"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,70%)"/><stop offset="0.55" stop-color="hsl(${hue + 20},35%,55%)"/><stop offset="1" stop-color="hsl(${hue + 60},30%,25%)"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  const scene = await sharp(Buffer.from(svg)).resize(WIDTH, HEIGHT).png({ compressionLevel: 0 }).toBuffer();
  const grain = await Promise.all(
    [
      [40, 60],
      [8, 40],
      [2, 22],
    ].map(async ([scale, sigma]) => ({
      input: await sharp({
        create: {
          width: Math.round(WIDTH / scale!),
          height: Math.round(HEIGHT / scale!),
          channels: 3,
          background: 0,
          noise: { type: 'gaussian', mean: 128, sigma: sigma! },
        },
      })
        .resize(WIDTH, HEIGHT, { kernel: scale! > 4 ? 'cubic' : 'nearest' })
        .png({ compressionLevel: 0 })
        .toBuffer(),
      blend: 'soft-light' as const,
    })),
  );
  let photo = sharp(scene)
    .composite(grain)
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'Canon', Model: 'EOS R6', Artist: 'Jane Editor', Copyright: 'Institute press office', Software: 'Camera firmware 1.8' },
      IFD2: { BodySerialNumber: '082021004518', DateTimeOriginal: '2026:03:14 09:30:00' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 1234/100', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 5678/100' },
    });
  // A phone holds the sensor sideways for a portrait and says so in EXIF.
  if (kind === 'portrait') photo = photo.withMetadata({ orientation: 6 });
  if (kind === 'display-p3') photo = photo.withIccProfile('p3');
  return photo.toBuffer();
}
