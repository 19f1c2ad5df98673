import type { InspectedPage, InspectedSite } from '../../checks/collect.ts';
import { isCheckName, type ContentWarning } from '../../checks/run.ts';
import type { SearchIndexState } from '../../output/search-index.ts';
import { dependsItems, dependsKey, mediaList, mediaUrls, pageDepends } from '../../content/page-depends.ts';

/**
 * The build state's format (build-state.ts saves and loads it): what a state file holds, each page as one
 * row (encodePage and decodePage, the only two that know its columns), and the readers that take a
 * saved value only when it has the shape a build writes. Whether a state that reads well may be trusted
 * is state-trust.ts's to say.
 */

/** The format of the state file; a state of another version is not used (the next build is a full one). */
export const STATE_VERSION = 5;

/** A build's place in the backend's change feed (build/incremental/changed-routes.ts). */
export interface FeedState {
  /** The feed's cursor, taken before the build asked for any page. */
  cursor: string;
  /** The backend the cursor is from, and whether drafts were asked for: a cursor means nothing to another. */
  source: string;
  /** Route id → the content types its documents read (content/types-read.ts). */
  routeTypes: Record<string, readonly string[]>;
}

/** One page of a previous build. */
export interface RememberedPage {
  /** pageHash of its route, path and data. */
  hash: string;
  noindex: boolean;
  lastmod?: string;
  /** Bytes of its index.html and _payload.json. */
  bytes: number;
  inspected: InspectedPage;
  links: readonly string[];
  /** With an entry's key (RouteEntry.key): the key and the ids of the items its data held (content/page-depends.ts). */
  depends?: string;
  /**
   * What the build took from its data for more than the page: the media URLs it refers to
   * (content/page-depends.ts mediaList) and each extra output's note of it (OutputCollector.page's
   * return, in the outputs' order, trailing nulls left out). Without them, a later update in place that
   * keeps the page reads it back.
   */
  media?: string;
  notes?: readonly unknown[];
}

/** What a build records per page, in the inspector's order, to save as the next build's state. */
export interface PageRecordForState {
  hash: string;
  noindex: boolean;
  lastmod?: string;
  bytes: number;
  depends?: string;
  media?: string;
  notes?: readonly unknown[];
}

/** Whether the build recorded what the outputs and the media copier need of a page (its media and the notes). */
export function seenWhole(page: Pick<RememberedPage, 'media' | 'notes'> | undefined): boolean {
  return page?.media !== undefined && page.notes !== undefined;
}

/** The tables a saved page's lists are indexes into. */
export interface PageTables {
  links: readonly unknown[];
  items: readonly unknown[];
  media: readonly unknown[];
}

/** Page `page`'s row, with `links` its link ids and `index` giving an item id's or a media URL's place in the state's tables. */
export function encodePage(
  page: InspectedPage,
  record: PageRecordForState,
  links: number[],
  index: { item(id: string): number; media(url: string): number },
): SavedPage {
  const seen = seenWhole(record);
  return [
    page.path,
    page.route,
    record.hash,
    record.noindex ? 1 : 0,
    record.lastmod ?? null,
    record.bytes,
    page.title,
    page.ids,
    page.imagesWithoutAlt,
    page.htmlChars,
    page.payloadChars,
    page.payloadBytesOverBudget,
    links,
    record.depends === undefined ? null : dependsKey(record.depends),
    record.depends === undefined ? null : dependsItems(record.depends).map(index.item),
    seen ? mediaUrls(record.media!).map(index.media) : null,
    seen ? record.notes! : null,
  ];
}

/** A row that is not what encodePage writes, and the path it names (the row itself when it names none). */
export interface DamagedPage {
  damaged: unknown;
}

/**
 * The page a row holds, or a DamagedPage when its facts are not of the types encodePage writes (its links
 * included: each an index into the state's links). The facts go to the checks, the report and the next
 * state as they are, so a damaged row must make the state not hold, not fail the build later. What the
 * page depends on and its media and notes are read only when whole; else the page has none (it is then
 * asked for again, or read back when it is kept).
 */
export function decodePage(row: unknown, tables: PageTables): RememberedPage | DamagedPage {
  if (!Array.isArray(row)) return { damaged: row };
  const [
    path,
    route,
    hash,
    noindex,
    lastmod,
    bytes,
    title,
    ids,
    imagesWithoutAlt,
    htmlChars,
    payloadChars,
    overBudget,
    links,
    key,
    held,
    media,
    notes,
  ] = row as unknown[];
  const count = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  const strings = (list: unknown): list is string[] => Array.isArray(list) && list.every((item) => typeof item === 'string');
  const linkIds = (list: unknown): list is number[] =>
    Array.isArray(list) &&
    list.every(
      (id) =>
        Number.isInteger(id) &&
        (id as number) >= 0 &&
        (id as number) < tables.links.length &&
        typeof tables.links[id as number] === 'string',
    );
  if (
    !(
      typeof path === 'string' &&
      typeof route === 'string' &&
      typeof hash === 'string' &&
      (noindex === 0 || noindex === 1) &&
      (lastmod === null || typeof lastmod === 'string') &&
      count(bytes) &&
      (title === null || typeof title === 'string') &&
      typeof ids === 'string' &&
      strings(imagesWithoutAlt) &&
      count(htmlChars) &&
      count(payloadChars) &&
      (overBudget === null || count(overBudget)) &&
      linkIds(links)
    )
  ) {
    return { damaged: path };
  }
  const depends = savedDepends(key, held, tables.items);
  const list = savedMedia(media, tables.media);
  return {
    hash,
    noindex: noindex === 1,
    lastmod: lastmod ?? undefined,
    bytes,
    inspected: { path, route, title, ids, imagesWithoutAlt, htmlChars, payloadChars, payloadBytesOverBudget: overBudget },
    links: links.map((i) => tables.links[i] as string),
    ...(depends !== undefined && { depends }),
    ...(list !== undefined && Array.isArray(notes) && { media: list, notes: notes as readonly unknown[] }),
  };
}

/**
 * One page as the state saves it: a row of its facts, its lists as indexes into the state's tables
 * (links, item ids, media), so that a string many pages share is written once. Written by encodePage and
 * read by decodePage only: the order of the columns is theirs.
 */
export type SavedPage = [
  path: string,
  route: string,
  hash: string,
  noindex: 0 | 1,
  lastmod: string | null,
  bytes: number,
  title: string | null,
  ids: string,
  imagesWithoutAlt: readonly string[],
  htmlChars: number,
  payloadChars: number,
  overBudget: number | null,
  links: number[],
  /** With an entry's key: the key, and the page's item ids as indexes into SavedState.items; else null. */
  key?: string | null,
  items?: number[] | null,
  /** RememberedPage.media as indexes into SavedState.media, and RememberedPage.notes; else null. */
  media?: number[] | null,
  notes?: readonly unknown[] | null,
];

/** The state file's JSON, as saveBuildState writes it. */
export interface SavedState {
  version: number;
  /** Names this save of the state: a moved cursor (saveFeedCursor) holds only for the save it names. */
  save: string;
  buildId: string;
  /** generatorFingerprint() of the build that wrote the folder. */
  generator: string;
  timestamp: number;
  outDir: string;
  /** folderIdentity() of the output folder after the build. */
  folder: string;
  /** Sampled pages and samplePage() of each. */
  sample: [string, string][];
  /** Every distinct link target, once: pages refer to them by index. */
  links: string[];
  pages: SavedPage[];
  /** Every item id a page's data held (when its entry had a key), once: pages refer to them by index. */
  items?: string[];
  outputs: Record<string, string>;
  media: string[];
  search: unknown;
  /** Absent in a state saved before the change feed. */
  feed?: FeedState | null;
  /** Absent in a state saved before the checks' warnings were kept. */
  warnings?: unknown;
}

/**
 * The search index's record a state holds, when it has the shape output/search-index.ts gives; else null
 * (the index is built again). Its file names are used only where the state's outputs list them too.
 */
export function savedSearch(saved: unknown): SearchIndexState | null {
  const record = saved as Partial<SearchIndexState> | null;
  const strings = (value: unknown): boolean => Array.isArray(value) && value.every((v) => typeof v === 'string');
  const whole =
    typeof record === 'object' &&
    record !== null &&
    Array.isArray(record.partitions) &&
    record.partitions.every((p) => typeof p === 'object' && p !== null && typeof p.key === 'string' && strings(p.files)) &&
    Array.isArray(record.docs) &&
    record.docs.every((d) => Array.isArray(d) && d.length === 2 && strings(d));
  return whole ? (record as SearchIndexState) : null;
}

/** The warnings a state recorded, when they have the shape the checks give; else null (check again). */
export function savedWarnings(saved: unknown): ContentWarning[] | null {
  if (!Array.isArray(saved)) return null;
  const warnings: ContentWarning[] = [];
  for (const w of saved as Partial<Record<keyof ContentWarning, unknown>>[]) {
    const { check, page, route, message, fix } = w ?? {};
    if (
      !isCheckName(check) ||
      typeof page !== 'string' ||
      typeof route !== 'string' ||
      typeof message !== 'string' ||
      typeof fix !== 'string'
    )
      return null;
    // Only the warning's own fields go on to the report.
    warnings.push({ check, page, route, message, fix });
  }
  return warnings;
}

/**
 * A page's saved key and item ids, when they have the shape saveBuildState gives; else none (the page is
 * then asked for again, never kept unasked).
 */
function savedDepends(key: unknown, held: unknown, items: readonly unknown[]): string | undefined {
  const ids = typeof key === 'string' ? stringsAt(held, items) : undefined;
  return ids && pageDepends(key as string, ids);
}

/** A saved page's media URLs (RememberedPage.media), when they have the shape saveBuildState gives; else none (the page is then read back when it is kept). */
function savedMedia(media: unknown, urls: readonly unknown[]): string | undefined {
  const list = stringsAt(media, urls);
  return list && mediaList(list);
}

/** The strings of `table` at the indexes a saved list names; undefined unless it is a list of indexes of strings there. */
function stringsAt(indexes: unknown, table: readonly unknown[]): string[] | undefined {
  if (!Array.isArray(indexes)) return undefined;
  const strings: string[] = [];
  for (const index of indexes as unknown[]) {
    const value = typeof index === 'number' ? table[index] : undefined;
    if (typeof value !== 'string') return undefined;
    strings.push(value);
  }
  return strings;
}

/**
 * Each page's link ids (its links' places in `links`, the order the state lists them in), in the order
 * saveBuildState writes them: page i's are `ids` from `starts[i]` to `starts[i + 1]`. Two typed arrays
 * rather than a list per page: at 100,000 pages the lists were about 30 MB, made at the build's end,
 * where its memory peaks.
 */
export function linksByPage(links: InspectedSite['links'], pages: number): { ids: Uint32Array; starts: Uint32Array } {
  // Two walks over every use of every link: without a list of a link's pages made for each (LinkUsers.forEachUse), which at
  // 10,000 pages was 20 MB of garbage for each state `site live` saves.
  const eachUse = (visit: (link: number, page: number) => void): void => {
    if (links.forEachUse) return links.forEachUse(visit);
    let id = 0;
    for (const users of links.values()) {
      for (const user of users) visit(id, user);
      id++;
    }
  };
  const starts = new Uint32Array(pages + 1);
  eachUse((_, user) => void starts[user + 1]!++);
  for (let i = 0; i < pages; i++) starts[i + 1]! += starts[i]!;
  const ids = new Uint32Array(starts[pages]!);
  const filled = starts.slice(0, pages);
  eachUse((id, user) => void (ids[filled[user]!++] = id));
  return { ids, starts };
}

/** Writes a JSON array of strings a part at a time, never the whole list as one string. */
export async function writeJsonList(out: { write(text: string): Promise<unknown> }, items: Iterable<string>): Promise<void> {
  let part: string[] = [];
  let first = true;
  const flush = async (): Promise<void> => {
    await out.write((first ? '[' : ',') + JSON.stringify(part).slice(1, -1));
    first = false;
    part = [];
  };
  for (const item of items) if (part.push(item) === LIST_PART) await flush();
  if (part.length > 0 || first) await flush();
  await out.write(']');
}

/** Strings of a long list written at once (writeJsonList). */
const LIST_PART = 10_000;
