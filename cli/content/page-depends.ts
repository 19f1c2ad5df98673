/**
 * What an update in place needs to know of a page to keep it without asking for it (build/incremental/changed-routes.ts),
 * in one string per page, as a build of 100,000 pages holds one for each: its entry's key (RouteEntry.key),
 * a line break, and the ids of the items its data holds (content/item-ids.ts), each followed by a space.
 */

/** The page's key and item ids in one string; undefined when they cannot be told apart in it (a key with a line break, an id with a space or a line break, or empty). */
export function pageDepends(key: string, items: readonly string[]): string | undefined {
  if (key.includes('\n') || items.some((id) => id === '' || /[ \n]/.test(id))) return undefined;
  // Joined, not added up: a string built with += is a tree of its pieces, which a build would hold for every page.
  const parts = [key, '\n'];
  for (const id of items) parts.push(id, ' ');
  return parts.join('');
}

/** The entry's key pageDepends was given. */
export function dependsKey(depends: string): string {
  return depends.slice(0, depends.indexOf('\n'));
}

/** The item ids pageDepends was given. */
export function dependsItems(depends: string): string[] {
  const ids = depends.slice(depends.indexOf('\n') + 1);
  return ids === '' ? [] : ids.slice(0, -1).split(' ');
}

/** Whether a page whose depends string is this, given an entry with `key`, shows none of the `changed` ids. */
export function dependsUnchanged(depends: string | undefined, key: string, changed: ReadonlySet<string>): boolean {
  if (depends === undefined || !depends.startsWith(key) || depends.charCodeAt(key.length) !== 10) return false;
  const ids = depends.slice(key.length + 1);
  if (changed.size > FEW_CHANGES) return !ids.split(' ').some((id) => changed.has(id));
  for (const id of changed) if (ids.startsWith(`${id} `) || ids.includes(` ${id} `)) return false;
  return true;
}

/** Up to this many changed ids, each is looked for in the string; past it, the page's ids are looked up among them. */
const FEW_CHANGES = 8;

/** A page's media URLs in one string: '' for none, the URL itself for one, else joined by line breaks (which no media URL holds). */
export function mediaList(urls: readonly string[]): string {
  return urls.length === 1 ? urls[0]! : urls.join('\n');
}

/** The URLs of a mediaList. */
export function mediaUrls(list: string): string[] {
  return list === '' ? [] : list.split('\n');
}
