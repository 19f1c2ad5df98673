import { DERIVATIVE_PREFIX, type ImageMimeType, type ImageSource, type ResolvedImageFields } from '../../../runtime/shared/images.ts';
import type { ImageSettings } from './image-settings.ts';

/** What the build reads of a source image before it decodes it (probeImage, image-codec.ts). */
export interface ProbedImage {
  format: 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';
  /** Pixels as shown: EXIF orientation applied (a phone's portrait stored sideways is taller than wide). */
  width: number;
  height: number;
  hasAlpha: boolean;
}

/** One file the build makes of a source. */
export interface Derivative {
  /** Site path, `/media/_img/{key}/{width}.{ext}`: short, as every srcset candidate is written twice a page (HTML and payload). */
  url: string;
  /** The file's name in its key's folder, in the site and in the cache: `{width}.{ext}`. */
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
 * The derivatives of a source whose bytes and settings hash to `key` (images.ts): one photo uploaded
 * under two names has the same files.
 */
export function planDerivatives(key: string, image: ProbedImage, settings: ImageSettings): DerivativePlan {
  const make = (format: Derivative['format'], width: number): Derivative => {
    const name = `${width}.${EXTENSIONS[format]}`;
    return {
      url: `${DERIVATIVE_PREFIX}${key}/${name}`,
      name,
      format,
      width,
      height: Math.max(1, Math.round((width * image.height) / image.width)),
    };
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
    sources: plan.sets.map(
      ({ format, derivatives }): ImageSource => ({
        type: MIME_TYPES[format],
        urls: derivatives.map((d) => d.url),
        widths: derivatives.map((d) => d.width),
      }),
    ),
  };
}

/** Every file of a plan. */
export function derivativesOf(plan: DerivativePlan): Derivative[] {
  return [plan.fallback, ...plan.sets.flatMap((set) => set.derivatives)];
}

/** The key and the cache's file name (Derivative.name) of a derivative URL, or null for a URL that is not one. */
export function parseDerivativeUrl(url: string): { key: string; name: string } | null {
  const m = DERIVATIVE_URL.exec(url);
  return m ? { key: m[1]!, name: m[2]! } : null;
}

// --- internal ---

const EXTENSIONS = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png' } as const;
const MIME_TYPES: Record<'avif' | 'webp', ImageMimeType> = { avif: 'image/avif', webp: 'image/webp' };
const DERIVATIVE_URL = /^\/media\/_img\/([0-9a-f]{20})\/(\d{1,5}\.(?:avif|webp|jpg|png))$/;
