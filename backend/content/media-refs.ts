/**
 * Registers the media a content set references. Each helper returns the value to put in a record (an
 * ImageRef, a URL, a byte size) and remembers how to generate the file, so that every `/media/...` URL in
 * the content answers 200 and nothing else does.
 */
import type { ImageRef, MediaSpec } from './types.ts';
import { renderPdf } from '../media.ts';

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
  /** Registers `/media/{folder}/{slug}.svg` and returns its ImageRef. */
  image(kind: ImageKind, folder: string, slug: string, alt: string): ImageRef;
  /** Registers `/media/{folder}/{slug}.pdf` and returns its URL and exact size in bytes. */
  pdf(folder: string, slug: string, title: string, subtitle: string): { url: string; size: number };
  /** Registers `/media/podcast/episode-{number}.wav` and returns its URL. */
  audio(number: number, seconds: number): string;
}

/** Creates an empty registry. */
export function createMediaRegistry(): MediaRegistry {
  const specs = new Map<string, MediaSpec>();
  return {
    specs,
    image(kind, folder, slug, alt) {
      const { width, height } = IMAGE_SIZES[kind];
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
