/**
 * Element ids built from content (issue 16.1), for the site's components and both rich-text cleaners.
 * A module of its own, apart from content-rules.ts, so that pages rendering content ids load only
 * these few lines on first load.
 */

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
  const id =
    anchor.startsWith(CONTENT_ID_PREFIX) && anchor.length > CONTENT_ID_PREFIX.length ? anchor : CONTENT_ID_PREFIX + (anchor || 'section');
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
