/**
 * What content from the backend may hold (DESIGN.md decision 6), for both cleaners: the build's
 * (cli/sanitize.ts, sanitize-html on Node) and the browser's for live data (runtime/live-sanitize.ts,
 * DOMPurify). One list, so a page looks the same whether its data came from the build or the API.
 */

/** Fields holding rich text (HTML), as in site/schema.graphql. */
export const RICH_TEXT_FIELDS: ReadonlySet<string> = new Set(['body']);

/** Fields holding one URL that pages put into href or src. */
export const URL_FIELD = /^(?:url|href|[a-z]+Url)$/;

/** What an unsafe URL field becomes: a link to nowhere rather than a missing string the page expects. */
export const BLOCKED_URL = '#';

/** Tags rich text may use; everything else is dropped with its content. */
export const RICH_TEXT_TAGS: readonly string[] = ['p', 'br', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'b', 'i', 'blockquote', 'code', 'pre', 'figure', 'figcaption', 'img', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'sup', 'sub', 'abbr', 'cite'];

/** Attributes each tag may keep, besides RICH_TEXT_ANY_TAG_ATTRIBUTES. */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'loading'],
  abbr: ['title'],
  th: ['scope'],
};

/** Attributes any tag may keep; an `id` only when it is SAFE_ID. */
export const RICH_TEXT_ANY_TAG_ATTRIBUTES: readonly string[] = ['id', 'lang'];

/** URL schemes links and images in rich text may use (relative URLs too, never protocol-relative ones). */
export const RICH_TEXT_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];

/**
 * Ids rich text may keep: anchor-like names. Others (`__BOOT__`, say) could clobber elements the
 * runtime looks up by id, because the body comes before them in the document.
 */
export const SAFE_ID = /^[a-z][a-z0-9-]{0,63}$/;

/** A URL a link or image may point at: http(s), mailto, tel, or relative (never `//host` or `/\\host`). */
export function isSafeUrl(url: string): boolean {
  // Browsers drop tabs and newlines inside URLs and ignore leading spaces and controls: check what they would see.
  const seen = url.replace(/[\t\n\r]/g, '').replace(/^[\p{Cc} ]+/u, '');
  if (/^[/\\]{2}/.test(seen) || /^\/\\/.test(seen)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(seen)?.[1];
  return scheme === undefined || RICH_TEXT_SCHEMES.includes(scheme.toLowerCase());
}

/** A string field's value with an unsafe URL blocked: BLOCKED_URL for a URL field holding one, else the value. */
export function safeUrlField(key: string, value: string): string {
  return URL_FIELD.test(key) && !isSafeUrl(value) ? BLOCKED_URL : value;
}
