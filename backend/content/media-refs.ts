/**
 * Registers the media a content set references. Each helper returns the value to put in a record (an
 * ImageRef, a URL, a byte size) and remembers how to generate the file, so that every `/media/...` URL in
 * the content answers 200 and nothing else does.
 */
import type { ImageRef, MediaSpec } from './types.ts';
import { renderPdf } from '../media.ts';
import { hashString } from './random.ts';

/** Image sizes per kind of content, as stated in each Image's width and height. */
export const IMAGE_SIZES = {
  news: { width: 1200, height: 675 },
  event: { width: 1200, height: 675 },
  project: { width: 1200, height: 800 },
  person: { width: 400, height: 400 },
} as const;

/** The kinds of image the content uses. */
export type ImageKind = keyof typeof IMAGE_SIZES;

/** Collects media specs while a content set is built. */
export interface MediaRegistry {
  /** Every registered path and its spec. */
  readonly specs: ReadonlyMap<string, MediaSpec>;
  /** Registers `/media/{folder}/{slug}.svg` (`.jpg` with `photos`) and returns its ImageRef. */
  image(kind: ImageKind, folder: string, slug: string, alt: string): ImageRef;
  /** Registers `/media/{folder}/{slug}.pdf` and returns its URL and exact size in bytes. */
  pdf(folder: string, slug: string, title: string, subtitle: string): { url: string; size: number };
  /** Registers `/media/podcast/episode-{number}.wav` and returns its URL. */
  audio(number: number, seconds: number): string;
}

/**
 * How a content set's images are served: the sample's small SVGs (the default) or camera photos as
 * editors upload them (photos.ts), each image its own file unless `variants` makes them share that many
 * files per kind of photo (tests that need photos but not one encode per image).
 */
export interface MediaOptions {
  readonly photos?: boolean | { readonly variants: number };
}

/**
 * Creates an empty registry. With `photos`, every image is `/media/{folder}/{slug}.jpg`, a camera photo:
 * a person's a phone's portrait stored sideways (EXIF orientation 6), a research project's in Display P3,
 * the others landscape. Its ImageRef still states IMAGE_SIZES, not the photo's 4000×3000: wrong, as CMSs
 * often are, so the build must read the real size from the file.
 */
export function createMediaRegistry(options: MediaOptions = {}): MediaRegistry {
  const specs = new Map<string, MediaSpec>();
  const variants = typeof options.photos === 'object' ? options.photos.variants : null;
  return {
    specs,
    image(kind, folder, slug, alt) {
      const { width, height } = IMAGE_SIZES[kind];
      if (options.photos) {
        const url = `/media/${folder}/${slug}.jpg`;
        const photo = kind === 'person' ? 'portrait' : kind === 'project' ? 'display-p3' : 'landscape';
        specs.set(url, { kind: 'photo', photo, tag: variants ? `variant ${hashString(url) % variants}` : url });
        return { url, alt, width, height };
      }
      const url = `/media/${folder}/${slug}.svg`;
      specs.set(url, { kind: 'image', width, height, label: alt });
      return { url, alt, width, height };
    },
    pdf(folder, slug, title, subtitle) {
      const url = `/media/${folder}/${slug}.pdf`;
      specs.set(url, { kind: 'pdf', title, subtitle });
      // The size field must match the served bytes; PDFs are a few hundred bytes, so rendering once is cheap.
      return { url, size: renderPdf(title, subtitle).length };
    },
    audio(number, seconds) {
      const url = `/media/podcast/episode-${number}.wav`;
      // A distinct, pleasant pitch per episode (A3 to roughly E5) so files differ.
      specs.set(url, { kind: 'audio', seconds, frequency: 220 + ((number * 55) % 440) });
      return url;
    },
  };
}
