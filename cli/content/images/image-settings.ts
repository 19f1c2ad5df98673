/**
 * The derivatives the build makes of every raster image (docs/decisions/image-derivatives.md has the
 * measurements behind each choice). Pure data: cli/config/ resolves the user's options into this.
 */

/** The formats of a srcset, most preferred first. JPEG or PNG is always made too, as the fallback `src`. */
export type DerivedFormat = 'avif' | 'webp';

export const DERIVED_FORMATS: readonly DerivedFormat[] = ['avif', 'webp'];

export interface ImageSettings {
  /** Derivative widths in pixels, narrowest first; none wider than its source is made. */
  readonly widths: readonly number[];
  /** The srcset's formats, most preferred first. */
  readonly formats: readonly DerivedFormat[];
  /** Width of the fallback `src`, which is also the social card (og:image). */
  readonly fallbackWidth: number;
  /** A source of more pixels than this fails the build (a decompression bomb, or a file no page needs whole). */
  readonly maxPixels: number;
  /** Derivatives made by an image service instead of the build; null: the build encodes them. */
  readonly service: ImageService | null;
}

/** imgproxy (https://docs.imgproxy.net): the build signs each URL; key and salt never reach the output. */
export interface ImageService {
  readonly kind: 'imgproxy';
  /** Where the service answers, without a trailing slash (`https://img.example.org`). */
  readonly url: string;
  readonly key: Buffer;
  readonly salt: Buffer;
}

/**
 * Widths that serve every slot the site has within 1.5× of the pixels shown: a 5rem portrait at device
 * pixel ratio 3 (240 px) up to the article image on a 2× laptop screen (about 1,500 px).
 */
export const DEFAULT_IMAGE_WIDTHS: readonly number[] = [320, 480, 640, 800, 1080, 1280, 1600];

export const DEFAULT_IMAGE_FORMATS: readonly DerivedFormat[] = ['webp'];

/** 100 megapixels: more than a medium-format camera's photo, far less than a decompression bomb's claim. */
export const DEFAULT_IMAGE_MAX_PIXELS = 100_000_000;

export const FALLBACK_WIDTH = 1200;

/**
 * Encoder settings, part of every derivative's cache key and name: changing one makes new files under
 * new URLs, so a browser never keeps an old encoding.
 */
export const ENCODER_OPTIONS = {
  webp: { quality: 70, effort: 2 },
  avif: { quality: 50, effort: 2 },
  jpeg: { quality: 78, progressive: true },
  png: { compressionLevel: 9, effort: 4 },
} as const;
