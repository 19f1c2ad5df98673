import { RICH_TEXT_FIELDS } from '../../../runtime/shared/content-rules.ts';
import { srcsetOf, type ResolvedImageFields } from '../../../runtime/shared/images.ts';
import { isRasterExtension } from './image-codec.ts';

/**
 * Where page data holds images, and the data with each one resolved (images.ts): an image field
 * (`{ url, alt, width, height }`, site/queries/common.ts ImageData) gets the real size, a fallback `url`
 * and its `sources`; an `<img>` in rich text gets the same as `src`, `srcset`, `sizes`, `width` and
 * `height`. Pure functions over the data the backend sent and the build cleaned.
 */

/** The raster `/media/` images the data shows, each once, in order. */
export function imageUrlsIn(data: unknown): string[] {
  const found = new Set<string>();
  visit(
    data,
    (image) => void found.add(image.url),
    (html) => {
      for (const tag of html.matchAll(IMG_TAG)) {
        const src = attributesOf(tag[0]).get('src');
        if (src !== undefined && isDerivable(src)) found.add(src);
      }
    },
  );
  return [...found];
}

/**
 * The data with every image `imageUrlsIn` found replaced by its resolved fields (copy on write: what holds
 * no image is the same object). `richTextSizes` is the `sizes` of images in rich text (site/site.config.ts).
 */
export function withResolvedImages<T>(data: T, resolved: ReadonlyMap<string, ResolvedImageFields>, richTextSizes: string): T {
  const walk = (value: unknown, key: string | null): unknown => {
    if (typeof value === 'string')
      return key !== null && RICH_TEXT_FIELDS.has(key) && value.includes('<img') ? rewriteRichText(value, resolved, richTextSizes) : value;
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const next = walk(value[i], key);
        if (next !== value[i]) (copy ??= value.slice())[i] = next;
      }
      return copy ?? value;
    }
    const record = value as Record<string, unknown>;
    if (isImageField(record)) {
      const fields = resolved.get(record.url);
      return fields ? { ...record, ...fields } : record;
    }
    let copy: Record<string, unknown> | null = null;
    for (const k of Object.keys(record)) {
      const next = walk(record[k], k);
      if (next !== record[k]) (copy ??= { ...record })[k] = next;
    }
    return copy ?? record;
  };
  return walk(data, null) as T;
}

// --- internal ---

const IMG_TAG = /<img\b[^>]*>/g;
const ATTRIBUTE = /\s([a-zA-Z-]+)="([^"]*)"/g;

/** An image field as the site's queries ask for it: a media URL with a width and a height. */
function isImageField(value: Record<string, unknown>): value is { url: string; width: unknown; height: unknown } {
  return typeof value.url === 'string' && 'width' in value && 'height' in value && isDerivable(value.url);
}

function isDerivable(url: string): boolean {
  if (!url.startsWith('/media/') || url.startsWith('/media/_img/')) return false;
  const path = url.split(/[?#]/, 1)[0]!;
  return isRasterExtension(path.slice(path.lastIndexOf('.') + 1).toLowerCase());
}

function visit(
  value: unknown,
  onImage: (image: { url: string }) => void,
  onRichText: (html: string) => void,
  key: string | null = null,
): void {
  if (typeof value === 'string') {
    if (key !== null && RICH_TEXT_FIELDS.has(key) && value.includes('<img')) onRichText(value);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) visit(item, onImage, onRichText, key);
    return;
  }
  const record = value as Record<string, unknown>;
  if (isImageField(record)) {
    onImage(record);
    return;
  }
  for (const k of Object.keys(record)) visit(record[k], onImage, onRichText, k);
}

/** Attributes of one tag as sanitize-html writes them (double-quoted, entities escaped). */
function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of tag.matchAll(ATTRIBUTE)) attributes.set(m[1]!.toLowerCase(), m[2]!);
  return attributes;
}

/**
 * Each resolved `<img>` of cleaned rich text, written again with the resolved fields. The attributes kept
 * from the author's tag are the cleaner's allowlist (alt, id, lang, loading); values stay as the cleaner
 * escaped them, and the build's own are URLs and numbers it made.
 */
function rewriteRichText(html: string, resolved: ReadonlyMap<string, ResolvedImageFields>, sizes: string): string {
  return html.replace(IMG_TAG, (tag) => {
    const attributes = attributesOf(tag);
    const fields = resolved.get(attributes.get('src') ?? '');
    if (!fields) return tag;
    const source = fields.sources?.at(-1);
    const parts = [`src="${fields.url}"`];
    if (source) parts.push(`srcset="${srcsetOf(source)}"`, `sizes="${sizes}"`);
    parts.push(
      `alt="${attributes.get('alt') ?? ''}"`,
      `width="${fields.width}"`,
      `height="${fields.height}"`,
      `loading="${attributes.get('loading') === 'eager' ? 'eager' : 'lazy'}"`,
      'decoding="async"',
    );
    for (const name of ['id', 'lang']) if (attributes.has(name)) parts.push(`${name}="${attributes.get(name)}"`);
    return `<img ${parts.join(' ')} />`;
  });
}
