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

/** Attributes any tag may keep; an `id` only as contentId makes it. */
export const RICH_TEXT_ANY_TAG_ATTRIBUTES: readonly string[] = ['id', 'lang'];

/** URL schemes links and images in rich text may use (relative URLs too, never protocol-relative ones). */
export const RICH_TEXT_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];

/**
 * What every element id (and every `#fragment` pointing at one) built from content starts with. No id
 * of the runtime (`app`, `__BOOT__`) or of a layout (`main`, `home-title`, …) starts with it, so no
 * content can name an element the page's own code looks up (a section whose id is `__BOOT__` would
 * otherwise stand in for the boot data). tests/integration/content-ids.test.ts checks both halves.
 */
export const CONTENT_ID_PREFIX = 'c-';

/**
 * The one rule for ids built from content, in rich text and in the site's components alike: anchor-like
 * characters (lower-case letters, digits, single dashes; at most 64 in all) behind CONTENT_ID_PREFIX. The same
 * name always gives the same id, and an id it made is kept as it is, so cleaning twice changes nothing.
 */
export function contentId(name: string): string {
  const anchor = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const id = anchor.startsWith(CONTENT_ID_PREFIX) && anchor.length > CONTENT_ID_PREFIX.length ? anchor : CONTENT_ID_PREFIX + (anchor || 'section');
  return id.slice(0, 64).replace(/-+$/, '');
}

/**
 * A link from content with its fragment made a content id (`#history` → `#c-history`, also on a
 * relative or root-relative URL), so it keeps pointing at the element contentId named. URLs with a
 * scheme or a host are another site's and stay as they are.
 */
export function contentFragment(url: string): string {
  const hash = url.indexOf('#');
  if (hash === -1 || hash === url.length - 1 || /^[a-z][a-z0-9+.-]*:|^[/\\]{2}/i.test(url)) return url;
  return url.slice(0, hash + 1) + contentId(url.slice(hash + 1));
}

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
