import { posix } from 'node:path';
import { DERIVATIVE_PREFIX, type ImageMimeType, type ImageSource, type ResolvedImageFields } from '../../../runtime/shared/images.ts';
import type { ImageSettings } from './image-settings.ts';

/** What the build reads of a source image before it decodes it (image-probe.ts). */
export interface ProbedImage {
  format: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';
  /** Pixels as shown: EXIF orientation applied (a phone's portrait stored sideways is taller than wide). */
  width: number;
  height: number;
  hasAlpha: boolean;
}

/** One file the build makes of a source. */
export interface Derivative {
  /** Site path, `/media/_img/{key}/{name}-{width}.{ext}`. */
  url: string;
  /**
   * The file's name in the cache's folder of its key, `{width}.{ext}`: the same bytes for every URL of
   * the same source (an image uploaded twice under two names is encoded once).
   */
  name: string;
  format: 'avif' | 'webp' | 'jpeg' | 'png';
  width: number;
  height: number;
}

/** Every file the build makes of one source, and the fields the page data gets. */
export interface DerivativePlan {
  key: string;
  fallback: Derivative;
  /** Per srcset format, narrowest first. */
  sets: { format: 'avif' | 'webp'; derivatives: Derivative[] }[];
}

/**
 * The widths made of a source `sourceWidth` pixels wide: every configured width narrower than the
 * source, and the source's own width when it is narrower than the widest (never an upscaled file).
 */
export function derivativeWidths(sourceWidth: number, widths: readonly number[]): number[] {
  const chosen = widths.filter((w) => w < sourceWidth);
  if (sourceWidth <= widths.at(-1)! || chosen.length === 0) chosen.push(Math.min(sourceWidth, widths.at(-1)!));
  return chosen;
}

/**
 * The derivatives of a source whose bytes and settings hash to `key` (image-key.ts). `sourceUrl` names
 * them, so a file's name says which image it is (`/media/_img/…/harbour-at-dawn-640.webp`).
 */
export function planDerivatives(key: string, sourceUrl: string, image: ProbedImage, settings: ImageSettings): DerivativePlan {
  const name = slugOf(sourceUrl);
  const make = (format: Derivative['format'], width: number): Derivative => {
    return { url: `${DERIVATIVE_PREFIX}${key}/${name}-${width}.${EXTENSIONS[format]}`, name: `${width}.${EXTENSIONS[format]}`, format, width, height: Math.max(1, Math.round((width * image.height) / image.width)) };
  };
  const widths = derivativeWidths(image.width, settings.widths);
  return {
    key,
    // The fallback keeps transparency where the source has it.
    fallback: make(image.hasAlpha ? 'png' : 'jpeg', Math.min(image.width, settings.fallbackWidth)),
    sets: settings.formats.map((format) => ({ format, derivatives: widths.map((width) => make(format, width)) })),
  };
}

/** The fields a page's image gets from a plan (runtime/shared/images.ts). */
export function resolvedFields(plan: DerivativePlan, image: ProbedImage): ResolvedImageFields {
  return {
    url: plan.fallback.url,
    width: image.width,
    height: image.height,
    sources: plan.sets.map(({ format, derivatives }): ImageSource => ({ type: MIME_TYPES[format], urls: derivatives.map((d) => d.url), widths: derivatives.map((d) => d.width) })),
  };
}

/** Every file of a plan. */
export function derivativesOf(plan: DerivativePlan): Derivative[] {
  return [plan.fallback, ...plan.sets.flatMap((set) => set.derivatives)];
}

/** The key and the cache's file name (Derivative.name) of a derivative URL, or null for a URL that is not one. */
export function parseDerivativeUrl(url: string): { key: string; name: string } | null {
  const m = DERIVATIVE_URL.exec(url);
  return m ? { key: m[1]!, name: `${m[2]!}.${m[3]!}` } : null;
}

// --- internal ---

const EXTENSIONS = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png' } as const;
const MIME_TYPES: Record<'avif' | 'webp', ImageMimeType> = { avif: 'image/avif', webp: 'image/webp' };
const DERIVATIVE_URL = /^\/media\/_img\/([0-9a-f]{20})\/[a-z0-9-]{1,64}-(\d{1,5})\.(avif|webp|jpg|png)$/;

/** A file-name-safe, readable name of the source: `/media/news/Harbour at Dawn.JPG` → `harbour-at-dawn`. */
function slugOf(url: string): string {
  const base = posix.basename(decodeURIComponentSafe(url)).replace(/\.[^.]*$/, '');
  const slug = base
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug || 'image';
}

function decodeURIComponentSafe(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
