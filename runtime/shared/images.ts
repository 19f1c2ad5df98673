/**
 * What the build adds to an image in the page data it renders and publishes (cli/content/images/), so
 * that a page rendered in the browser from its `_payload.json` shows the same `srcset` as the prerendered
 * one. The backend's image is `{ url, alt, width, height }`; after the build, `url` is a metadata-free
 * fallback at most 1,200 pixels wide (also the social card), `width` and `height` are the real file's
 * (orientation applied, whatever the CMS claimed), and `sources` lists the derivatives per format.
 */

/** One format's derivatives, narrowest first; `urls[i]` is `widths[i]` pixels wide. */
export interface ImageSource {
  type: ImageMimeType;
  urls: string[];
  widths: number[];
}

export type ImageMimeType = 'image/avif' | 'image/webp' | 'image/jpeg' | 'image/png';

/** The fields the build sets on an image it resolved. */
export interface ResolvedImageFields {
  url: string;
  width: number;
  height: number;
  /** Most preferred format first (AVIF before WebP); absent for an image the build did not derive (SVG). */
  sources?: ImageSource[];
}

/** A srcset attribute's value: `url 320w, url 640w`. */
export function srcsetOf(source: Pick<ImageSource, 'urls' | 'widths'>, maxWidth = Infinity): string {
  const parts: string[] = [];
  for (let i = 0; i < source.urls.length; i++) {
    const width = source.widths[i]!;
    // A slot that never shows an image wider than maxWidth keeps one candidate at or past it.
    if (width > maxWidth && i > 0 && source.widths[i - 1]! >= maxWidth) break;
    parts.push(`${source.urls[i]} ${width}w`);
  }
  return parts.join(', ');
}

/**
 * The prefix of every derivative's path. The build writes nothing else there: a URL under it that the
 * build did not make is refused, not downloaded.
 */
export const DERIVATIVE_PREFIX = '/media/_img/';

/**
 * The URL of the narrowest derivative at least `width` pixels wide (in the most widely supported format),
 * for a place that takes one URL rather than a srcset (a search result's thumbnail); `url` for an image
 * the build did not derive.
 */
export function imageUrlAtLeast(image: { url: string; sources?: readonly Pick<ImageSource, 'urls' | 'widths'>[] }, width: number): string {
  const source = image.sources?.at(-1);
  if (!source || source.urls.length === 0) return image.url;
  const index = source.widths.findIndex((w) => w >= width);
  return source.urls[index === -1 ? source.urls.length - 1 : index]!;
}
