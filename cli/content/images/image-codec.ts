import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type SharpModule from 'sharp';
import type { Sharp, SharpOptions } from 'sharp';
import { ENCODER_OPTIONS, type ImageSettings } from './image-settings.ts';
import { derivativesOf, type Derivative, type DerivativePlan, type ProbedImage } from './image-plan.ts';

/**
 * Reads and writes images with sharp (libvips): the header to probe a source, one decode per source for
 * all its derivatives. sharp runs on libuv's thread pool, never on the main thread; sharp's own cache is
 * off, so memory holds only the images being encoded (images.ts bounds how many at once).
 */

/** A source the build will not publish, and why; `fix` tells the editor what to do. */
export class ImageRefused extends Error {
  constructor(
    message: string,
    readonly fix: string,
    /** The source image's media URL, when the file that failed is one of its derivatives. */
    readonly source?: string,
  ) {
    super(message);
  }
}

/** The raster formats the build derives (GIF: its first frame). */
const FORMAT_OF_EXTENSION: Readonly<Record<string, ProbedImage['format']>> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  png: 'png',
  webp: 'webp',
  avif: 'avif',
  gif: 'gif',
};

/** Whether files with this (lower-case) extension are raster images the build derives. */
export function isRasterExtension(ext: string): boolean {
  return Object.hasOwn(FORMAT_OF_EXTENSION, ext);
}

/**
 * The format and shown size of the source `file` (named `.{ext}`), read from its header without decoding
 * it. Throws ImageRefused for a file that is not the image its name says, or has more than `maxPixels`.
 */
export async function probeImage(file: string, ext: string, maxPixels: number): Promise<ProbedImage> {
  const sharp = await loadSharp();
  let meta;
  try {
    // No pixel limit here: the header is read, not the pixels, and the limit below names the size.
    meta = await sharp(file, { limitInputPixels: false }).metadata();
  } catch (cause) {
    throw new ImageRefused(`the file is not an image the build can read (${(cause as Error).message})`, NOT_AN_IMAGE_FIX);
  }
  const format = detectedFormat(meta.format, meta.compression);
  const expected = FORMAT_OF_EXTENSION[ext];
  if (!format || format !== expected) {
    throw new ImageRefused(
      `the file is ${format ? `a ${format.toUpperCase()} image` : `not a raster image (${meta.format ?? 'unknown format'})`}, not the ${ext.toUpperCase()} its name says`,
      NOT_AN_IMAGE_FIX,
    );
  }
  const { width, height } = meta.autoOrient ?? meta;
  if (!width || !height) throw new ImageRefused('the file gives no size', NOT_AN_IMAGE_FIX);
  if (width * height > maxPixels) {
    throw new ImageRefused(
      `${width}×${height} is ${Math.round((width * height) / 1e6)} megapixels, more than --image-max-pixels allows (${Math.round(maxPixels / 1e6)} megapixels): a decompression bomb, or a file far larger than any page shows`,
      'Upload a smaller export of the image (a few thousand pixels wide is plenty), or raise --image-max-pixels if the site really needs it.',
    );
  }
  try {
    // Every pixel decodes (a truncated or damaged file fails here, before any page shows it): JPEG
    // decodes at an eighth of its size for this, so a 12-megapixel photo costs a few milliseconds.
    await sharp(file, { limitInputPixels: maxPixels, failOn: 'warning' }).resize(8, 8, { fit: 'inside' }).raw().toBuffer();
  } catch (cause) {
    throw new ImageRefused(`the file does not decode (${(cause as Error).message})`, NOT_AN_IMAGE_FIX);
  }
  return { format, width, height, hasAlpha: meta.hasAlpha === true };
}

/**
 * Every derivative of a plan, from one decode of `file`: orientation applied, colours converted to sRGB,
 * and no metadata (EXIF with GPS and camera serials, XMP, IPTC, ICC) in any file.
 */
export async function encodeDerivatives(
  file: string,
  plan: DerivativePlan,
  settings: Pick<ImageSettings, 'maxPixels'>,
): Promise<Map<string, Buffer>> {
  const sharp = await loadSharp();
  const all = derivativesOf(plan);
  const widest = Math.max(...all.map((d) => d.width));
  const options: SharpOptions = { limitInputPixels: settings.maxPixels, failOn: 'warning' };
  let decoded: { data: Buffer; info: { width: number; height: number; channels: 1 | 2 | 3 | 4 } };
  try {
    // JPEG sources shrink while they decode (libvips' shrink-on-load): a 12-megapixel photo is never whole in memory.
    const { data, info } = await sharp(file, options)
      .autoOrient()
      .resize({ width: widest, withoutEnlargement: true })
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    decoded = { data, info: { width: info.width, height: info.height, channels: info.channels } };
  } catch (cause) {
    throw new ImageRefused(`the file does not decode (${(cause as Error).message})`, NOT_AN_IMAGE_FIX);
  }
  const files = new Map<string, Buffer>();
  for (const derivative of all) {
    const resized = sharp(decoded.data, { raw: decoded.info }).resize({ width: derivative.width, height: derivative.height, fit: 'fill' });
    files.set(derivative.name, await encode(resized, derivative).toBuffer());
  }
  return files;
}

/**
 * A copy of the source without its metadata, orientation applied, in its own format: for a page that
 * links to the original file itself (`<a href="/media/photo.jpg">`).
 */
export async function cleanOriginal(file: string, image: ProbedImage, settings: Pick<ImageSettings, 'maxPixels'>): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    const pipeline = sharp(file, { limitInputPixels: settings.maxPixels, failOn: 'warning' }).autoOrient().toColourspace('srgb');
    switch (image.format) {
      case 'jpeg':
        return await pipeline.jpeg({ quality: 90 }).toBuffer();
      case 'png':
        return await pipeline.png(ENCODER_OPTIONS.png).toBuffer();
      case 'webp':
        return await pipeline.webp({ quality: 90 }).toBuffer();
      case 'avif':
        return await pipeline.avif({ quality: 70 }).toBuffer();
      case 'gif':
        return await pipeline.gif().toBuffer();
    }
  } catch (cause) {
    throw new ImageRefused(`the file does not decode (${(cause as Error).message})`, NOT_AN_IMAGE_FIX);
  }
}

/**
 * sharp's version and the libvips build it pins: a derivative's bytes depend on them, so its cache key
 * does too. Read from sharp's package.json, not from sharp itself: a warm build, whose derivatives are all
 * in the cache, never loads libvips (about 0.3 s).
 */
export async function codecVersion(): Promise<string> {
  const manifest = join(dirname(fileURLToPath(import.meta.resolve('sharp'))), '..', 'package.json');
  const { version, optionalDependencies = {} } = JSON.parse(await readFile(manifest, 'utf8')) as {
    version: string;
    optionalDependencies?: Record<string, string>;
  };
  const vips = Object.entries(optionalDependencies).find(([name]) => name.startsWith('@img/sharp-libvips-'))?.[1] ?? 'unknown';
  return `sharp ${version} libvips ${vips}`;
}

// --- internal ---

const NOT_AN_IMAGE_FIX = 'Export the image again as JPEG, PNG, WebP or AVIF and upload it, or remove it from the content.';

let loaded: Promise<typeof SharpModule> | undefined;

/** sharp loads when the first image needs it: a site without raster images never loads libvips. */
function loadSharp(): Promise<typeof SharpModule> {
  return (loaded ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  }));
}

function detectedFormat(format: string | undefined, compression: string | undefined): ProbedImage['format'] | null {
  if (format === 'heif') return compression === 'av1' ? 'avif' : null;
  return format === 'jpeg' || format === 'png' || format === 'webp' || format === 'gif' ? format : null;
}

function encode(image: Sharp, derivative: Derivative): Sharp {
  switch (derivative.format) {
    case 'webp':
      return image.webp(ENCODER_OPTIONS.webp);
    case 'avif':
      return image.avif(ENCODER_OPTIONS.avif);
    case 'jpeg':
      return image.jpeg(ENCODER_OPTIONS.jpeg);
    case 'png':
      return image.png(ENCODER_OPTIONS.png);
  }
}
