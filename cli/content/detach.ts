/**
 * A copy of `text` that does not share memory with the string it was cut from. V8 keeps a substring
 * (a regular expression's match, a slice) as a view of its parent, so a short string kept for the whole
 * build (a page's title, a link, a media URL) would otherwise keep the whole page's HTML or JSON alive:
 * at 50,000 pages the media URLs alone held 44 MB of payloads.
 *
 * The copy is a plain string of its own. A slice of a fresh copy (`(' ' + text).slice(1)`, as this
 * was) is itself a view, 32 bytes more for each of the 330,000 strings a 100,000-page build keeps
 * (10 MB); JSON keeps every code unit, lone surrogates too.
 */
export function detach(text: string): string {
  return text.length < 13 ? text : (JSON.parse(JSON.stringify(text)) as string);
}
