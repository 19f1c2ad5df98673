import { createHash, randomUUID } from 'node:crypto';
import { existsSync, lstatSync } from 'node:fs';
import { lstat, open, readdir, readFile, stat, utimes } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { InspectedPage, InspectedSite } from '../checks/collect.ts';
import { isCheckName, type ContentWarning } from '../checks/run.ts';
import { isSafePagePath } from '../content/crawl.ts';
import { mediaFileFor } from '../content/media.ts';
import { cacheKeyFor, sealJson } from '../config/cache-key.ts';
import { readBuild } from '../output/output.ts';
import { fileKey, leavesFolder, writeFileAtomic } from '../output/write.ts';
import { readBytes } from '../output/read.ts';
import { dependsItems, dependsKey, mediaList, mediaUrls, pageDepends } from '../content/page-depends.ts';
import { htmlFileFor, payloadFileFor } from '../../runtime/shared/paths.ts';

/**
 * What a build remembers about the output it wrote, in the build cache, so the next build into the
 * same folder can rewrite only what changed: each page's input hash and what the checks, the sitemap
 * and the report need from it (its rendered facts), the extra outputs' hashes and the media it copied.
 */
export interface BuildState {
  buildId: string;
  /** Names the save this state was read from (saveFeedCursor). */
  save: string;
  pages: Map<string, RememberedPage>;
  /** Site path of each extra output (feeds, calendars) → hash of its content. */
  outputs: Map<string, string>;
  /** Media URLs present in the output. */
  media: Set<string>;
  /** What the site search's index was built from, partition by partition (output/search-index.ts); null: the build wrote none, or its record does not hold. */
  search: SearchIndexState | null;
  /** Where the backend's change feed stood when the build asked, and what each route read; null: no feed. */
  feed: FeedState | null;
  /** The content checks' warnings on the output as that build wrote it; null: not recorded (check again). */
  warnings: ContentWarning[] | null;
}

/** A build's place in the backend's change feed (build/changed-routes.ts). */
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

/** What the build state keeps of the site search's index (output/search-index.ts), for the next update in place. */
export interface SearchIndexState {
  /** Each partition's key and files, in partition order. */
  partitions: { key: string; files: string[] }[];
  /** Each searched page's path and the hash of its documents, in index order. */
  docs: [path: string, hash: string][];
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

/** Records of pages by their index: build/page-records.ts PageRecords, or a plain array of them. */
export interface PageRecordList {
  readonly length: number;
  at(index: number): PageRecordForState | undefined;
}

/** Whether the build recorded what the outputs and the media copier need of a page (its media and the notes). */
export function seenWhole(page: Pick<RememberedPage, 'media' | 'notes'> | undefined): boolean {
  return page?.media !== undefined && page.notes !== undefined;
}

/** The hash that decides whether a page must be rendered again: its route, its path and its data. */
export function pageHash(routeId: string, path: string, json: string): string {
  return createHash('sha1').update(routeId).update('\0').update(path).update('\0').update(json).digest('base64url');
}

/** The hash of an extra output file's content. */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha1').update(content).digest('base64url');
}

/**
 * The state of the build in `outDir`, or why a full build is needed: no state, a state from an older
 * format, another build id (client code, options or site-wide data changed), another generator
 * (generator-fingerprint.ts: server-side code, site code, shell, dependencies, options), or an output
 * folder that is no longer the one the state describes (checked cheaply: the folder's identity on
 * disk, and the bytes of a few sampled pages).
 */
export async function loadBuildState(cacheDir: string, outDir: string, generator: string): Promise<{ state: BuildState } | { state: null; reason: string }> {
  const none = (reason: string): { state: null; reason: string } => ({ state: null, reason });
  try {
    const text = await readFile(stateFileFor(cacheDir, outDir), 'utf8').catch(() => null);
    if (text === null) return none('no previous build of this folder in the build cache');
    // What it says decides which pages are kept unread and what the outputs say of them: believed only as a build holding the cache key wrote it.
    if (!cacheKeyFor(cacheDir).sealedJson(STATE_MAC_CONTEXT, text)) return none("the build cache's state is not signed with this build's cache key (SITE_CACHE_KEY or the key file changed, or the cache was altered)");
    const saved = JSON.parse(text) as SavedState;
    if (saved.version !== STATE_VERSION || saved.outDir !== outDir) return none('the build cache holds another format');
    if (saved.generator !== generator) return none("the generator's or the site's code, the document shell, a dependency, Node.js or an option changed since the previous build");
    const outside = firstUnsafeName(saved);
    if (outside !== null) return none(`the build cache's state names ${JSON.stringify(outside)}, which is outside the output folder or not a name a build writes (a damaged or altered cache)`);
    const malformed = firstMalformedPage(saved);
    if (malformed !== null) return none(`the build cache's state has a damaged record of the page ${JSON.stringify(malformed)} (a damaged or altered cache)`);
    if (saved.feed) saved.feed = { ...saved.feed, cursor: (await movedCursor(cacheDir, outDir, saved.save)) ?? saved.feed.cursor };
    const { latest, meta } = await readBuild(outDir);
    if (latest.id !== saved.buildId || latest.timestamp !== saved.timestamp || meta.prerendered.length !== saved.pages.length) return none('the output folder no longer holds the build the cache describes');
    const folder = await folderIdentity(outDir);
    if (folder !== saved.folder) return none('the output folder was replaced or restored since the previous build (it is not the folder that build wrote)');
    for (const [path, hash] of saved.sample) {
      if ((await samplePage(outDir, path)) !== hash) return none(`the output folder's ${path} is not what the previous build wrote`);
    }
    const missing = await firstKeptFileMissing(outDir, saved);
    if (missing) return none(`the output folder's ${missing} is missing or not the size the previous build wrote`);
    const pages = new Map<string, RememberedPage>();
    const items = Array.isArray(saved.items) ? saved.items : [];
    for (const [path, route, hash, noindex, lastmod, bytes, title, ids, imagesWithoutAlt, htmlChars, payloadChars, overBudget, links, key, held, media, notes] of saved.pages) {
      const depends = savedDepends(key, held, items);
      const list = savedMedia(media, saved.media);
      pages.set(path, {
        hash,
        noindex: noindex === 1,
        lastmod: lastmod ?? undefined,
        bytes,
        inspected: { path, route, title, ids, imagesWithoutAlt, htmlChars, payloadChars, payloadBytesOverBudget: overBudget },
        links: links.map((i) => saved.links[i]!),
        ...(depends !== undefined && { depends }),
        ...(list !== undefined && Array.isArray(notes) && { media: list, notes }),
      });
    }
    return { state: { buildId: saved.buildId, save: saved.save, pages, outputs: new Map(Object.entries(saved.outputs)), media: new Set(saved.media), search: savedSearch(saved.search), feed: saved.feed ?? null, warnings: savedWarnings(saved.warnings) } };
  } catch (error) {
    return none(`the previous build could not be read (${(error as Error).message})`);
  }
}

/** Whether the build cache holds a state for `outDir` at all (whether it still holds is loadBuildState's to say). */
export function hasBuildState(cacheDir: string, outDir: string): boolean {
  return existsSync(stateFileFor(cacheDir, outDir));
}

/** Saves the state of the build just committed to `outDir` (atomically: a torn file would be read as none). */
export async function saveBuildState(
  cacheDir: string,
  outDir: string,
  state: {
    buildId: string;
    generator: string;
    timestamp: number;
    site: InspectedSite;
    records: PageRecordList;
    outputs: ReadonlyMap<string, string>;
    media: Iterable<string>;
    search: SearchIndexState | null;
    feed: FeedState | null;
    warnings: readonly ContentWarning[];
    /** The cache entries the build used, by kind (build/cache-kinds.ts): what pruning keeps for this state. */
    uses: CacheUses;
  },
): Promise<void> {
  // What the state refers to in the cache, first: a state is never on disk without it (build/cache-prune.ts).
  await saveCacheUses(cacheDir, outDir, state.uses);
  // A few pages spread over the site, read again by the next build to see that the folder is this one.
  const pages = state.site.pages;
  const step = Math.max(1, Math.floor(pages.length / SAMPLE_SIZE));
  const sample: [string, string][] = [];
  for (let i = 0; i < pages.length && sample.length < SAMPLE_SIZE; i += step) sample.push([pages.path(i), await samplePage(outDir, pages.path(i))]);
  const folder = await folderIdentity(outDir);
  // Item ids, once each: pages refer to them by index.
  const itemIds = new Map<string, number>();
  const itemIndex = (id: string): number => itemIds.get(id) ?? (itemIds.set(id, itemIds.size), itemIds.size - 1);
  const media = [...state.media].sort();
  const mediaIndex = new Map(media.map((url, i) => [url, i]));
  // A link's id is its place in the inspector's map of links, which the state lists in that order.
  const pageLinks = linksByPage(state.site.links, pages.length);
  // Written a thousand pages at a time, and the long lists of strings in parts: at 100,000 pages the
  // whole state as one string would be the largest thing the build ever holds, and the list of links
  // alone (160,000 of them) was a 10 MB string at the build's end, where its memory peaks.
  await writeFileAtomic(stateFileFor(cacheDir, outDir), async (temp) => {
    const file = await open(temp, 'w');
    // Everything written is signed as it goes; the signature closes the file (loadBuildState checks it).
    const seal = cacheKeyFor(cacheDir).jsonSeal(STATE_MAC_CONTEXT);
    const out = { write: (text: string) => (seal.update(text), file.write(text)) };
    try {
      const head: Omit<SavedState, 'pages' | 'links' | 'items' | 'outputs' | 'media' | 'warnings'> = { version: STATE_VERSION, save: randomUUID(), buildId: state.buildId, generator: state.generator, timestamp: state.timestamp, outDir, folder, sample, search: state.search, feed: state.feed };
      await out.write(`${JSON.stringify(head).slice(0, -1)},"links":`);
      await writeJsonList(out, state.site.links.keys());
      await out.write(`,"pages":[`);
      for (let start = 0; start < pages.length; start += 1000) {
        const rows: string[] = [];
        for (let i = start; i < Math.min(start + 1000, pages.length); i++) {
          const p = pages.at(i);
          const r = state.records.at(i)!;
          const row: SavedPage = [p.path, p.route, r.hash, r.noindex ? 1 : 0, r.lastmod ?? null, r.bytes, p.title, p.ids, p.imagesWithoutAlt, p.htmlChars, p.payloadChars, p.payloadBytesOverBudget, [...pageLinks.ids.subarray(pageLinks.starts[i], pageLinks.starts[i + 1])]];
          const seen = seenWhole(r);
          row.push(r.depends === undefined ? null : dependsKey(r.depends), r.depends === undefined ? null : dependsItems(r.depends).map(itemIndex), seen ? mediaUrls(r.media!).map((url) => mediaIndex.get(url) ?? -1) : null, seen ? r.notes! : null);
          rows.push(JSON.stringify(row));
        }
        await out.write((start > 0 ? ',' : '') + rows.join(','));
      }
      await out.write(`],"items":`);
      await writeJsonList(out, itemIds.keys());
      await out.write(`,"outputs":${JSON.stringify(Object.fromEntries(state.outputs))},"media":`);
      await writeJsonList(out, media);
      await out.write(`,"warnings":${JSON.stringify(state.warnings)}`);
      await file.write(seal.end());
    } finally {
      await file.close();
    }
  });
}

/**
 * Moves the saved state of the build in `outDir` on to a new change-feed cursor, for a build that found
 * nothing to change (build/unchanged.ts): everything else it remembers still holds. The cursor goes to a
 * small file beside the state, which names the state it belongs to (its `save`), rather than into the
 * state itself: rewriting 5.8 MB of state at 10,803 pages to move one cursor took about 100 ms, and a
 * feed's cursor moves at every build (the embedded backend's holds the time it was given).
 */
export async function saveFeedCursor(cacheDir: string, outDir: string, previous: Pick<BuildState, 'save'>, cursor: string): Promise<void> {
  const moved: MovedCursor = { save: previous.save, cursor, mac: cacheKeyFor(cacheDir).sign(CURSOR_MAC_CONTEXT, previous.save, cursor).toString('hex') };
  await writeFileAtomic(cursorFileFor(cacheDir, outDir), JSON.stringify(moved));
}

/** The cache entries a build used, by the kind's name (build/cache-kinds.ts): keys of entries, as each kind names them. */
export type CacheUses = Record<string, readonly string[]>;

/**
 * What the build cache holds of one output folder, as pruning and `site cache` see it (cache-prune.ts):
 * its state (an update in place reads it), the state's moved cursor, and the cache entries the build
 * used. A shard keeps no state, only its uses.
 */
export interface StoredState {
  /** The files, each path absolute (temporary files of a write included). */
  files: string[];
  /** The output folder; null when its uses are missing or damaged (a state saved before uses were, or a torn save). */
  outDir: string | null;
  /** Whether a state is there (an update in place can read it), or the uses only. */
  hasState: boolean;
  /** When a build last finished into that folder (ms): the latest of its files' times. */
  builtAt: number;
  bytes: number;
  /** The cache entries it refers to, by kind; null with outDir null. */
  uses: CacheUses | null;
}

/** Every output folder's record in the build cache, newest build first. Reads only the files of uses, never a state itself. */
export async function listBuildStates(cacheDir: string): Promise<StoredState[]> {
  const dir = join(cacheDir, 'builds');
  const names = await readdir(dir).catch(() => [] as string[]);
  const byId = new Map<string, string[]>();
  for (const name of names) {
    const id = STATE_FILE.exec(name)?.[1];
    if (id !== undefined) byId.set(id, [...(byId.get(id) ?? []), name]);
  }
  const states: StoredState[] = [];
  for (const [id, files] of byId) {
    let builtAt = 0;
    let bytes = 0;
    for (const name of files) {
      const info = await lstat(join(dir, name)).catch(() => null);
      if (!info) continue;
      bytes += info.size;
      builtAt = Math.max(builtAt, info.mtimeMs);
    }
    const saved = await readCacheUses(join(dir, `${id}.uses.json`));
    // Uses copied under another folder's name are no one's.
    const whole = saved !== null && stateFileFor(cacheDir, saved.outDir) === join(dir, `${id}.json`);
    states.push({ files: files.map((name) => join(dir, name)), outDir: whole ? saved.outDir : null, hasState: files.includes(`${id}.json`), builtAt, bytes, uses: whole ? saved.uses : null });
  }
  return states.sort((a, b) => b.builtAt - a.builtAt);
}

/**
 * Notes that a build into `outDir` just finished without rewriting its state (build/unchanged.ts): the
 * state's time is when a build last used it, which pruning goes by.
 */
export async function touchBuildState(cacheDir: string, outDir: string): Promise<void> {
  const now = new Date();
  await utimes(usesFileFor(cacheDir, outDir), now, now).catch(() => undefined);
}

/** The cache entries the state of `outDir` refers to, by kind; null when it has none (or they are damaged). */
export async function loadCacheUses(cacheDir: string, outDir: string): Promise<CacheUses | null> {
  const saved = await readCacheUses(usesFileFor(cacheDir, outDir));
  return saved?.outDir === outDir ? saved.uses : null;
}

// --- internal ---

const STATE_VERSION = 5;

/** A file of the state of one output folder: the state, its moved cursor, its uses; a temporary file of either. */
const STATE_FILE = /^([0-9a-f]{16})\.(?:json|cursor\.json|uses\.json)(?:\.[^/]*\.tmp|\.tmp[^/]*)?$/;

interface SavedUses {
  version: 1;
  outDir: string;
  uses: CacheUses;
}

/** Saves the cache entries the build into `outDir` used (saveBuildState's first step; a shard's only record). */
export async function saveCacheUses(cacheDir: string, outDir: string, uses: CacheUses): Promise<void> {
  const saved: SavedUses = { version: 1, outDir, uses: Object.fromEntries(Object.entries(uses).map(([kind, keys]) => [kind, [...new Set(keys)].sort()])) };
  await writeFileAtomic(usesFileFor(cacheDir, outDir), JSON.stringify(saved));
}

/** A file of uses when it has the shape saveCacheUses gives, else null. */
async function readCacheUses(file: string): Promise<SavedUses | null> {
  try {
    const saved = JSON.parse(await readFile(file, 'utf8')) as Partial<SavedUses> | null;
    if (saved?.version !== 1 || typeof saved.outDir !== 'string' || typeof saved.uses !== 'object' || saved.uses === null) return null;
    for (const keys of Object.values(saved.uses)) if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'string')) return null;
    return saved as SavedUses;
  } catch {
    return null;
  }
}

function usesFileFor(cacheDir: string, outDir: string): string {
  return stateFileFor(cacheDir, outDir).replace(/\.json$/, '.uses.json');
}

/**
 * Each page's link ids (its links' places in `links`, the order the state lists them in), in the order
 * saveBuildState writes them: page i's are `ids` from `starts[i]` to `starts[i + 1]`. Two typed arrays
 * rather than a list per page: at 100,000 pages the lists were about 30 MB, made at the build's end,
 * where its memory peaks.
 */
function linksByPage(links: InspectedSite['links'], pages: number): { ids: Uint32Array; starts: Uint32Array } {
  const starts = new Uint32Array(pages + 1);
  for (const users of links.values()) for (const user of users) starts[user + 1]!++;
  for (let i = 0; i < pages; i++) starts[i + 1]! += starts[i]!;
  const ids = new Uint32Array(starts[pages]!);
  const filled = starts.slice(0, pages);
  let id = 0;
  for (const users of links.values()) {
    for (const user of users) ids[filled[user]!++] = id;
    id++;
  }
  return { ids, starts };
}

/** Writes a JSON array of strings a part at a time, never the whole list as one string. */
async function writeJsonList(out: { write(text: string): Promise<unknown> }, items: Iterable<string>): Promise<void> {
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

/** Pages whose bytes the next build checks before it trusts the folder. */
const SAMPLE_SIZE = 8;

/**
 * The first page path or file the state names that would lead outside the output folder, or that names a
 * file another of its names names too, or null. The state decides which files an update in place reads
 * back, keeps and removes, so a state that was damaged or written by someone else must not take the
 * build elsewhere on the disk, nor name one file twice (a page as `/a` and `/a/.`, an output named like a
 * page's file, two spellings that differ by case on a file system that ignores it: the build would keep
 * the one and remove the other, which is the same file).
 */
function firstUnsafeName(saved: SavedState): string | null {
  // Page paths as the crawl makes them (isSafePagePath): ASCII and canonical, so two pages share a file only
  // when their paths differ by case alone.
  const paths = new Set<string>();
  const pages = new Set<string>();
  for (const [path] of saved.pages) {
    if (typeof path !== 'string' || !isSafePagePath(path) || pages.has(path.toLowerCase())) return String(path);
    paths.add(path);
    pages.add(path.toLowerCase());
  }
  for (const [path] of saved.sample) if (typeof path !== 'string' || !paths.has(path)) return String(path);
  // One file, one name: compared as the file system may (fileKey), and never a page's own file.
  const files = new Set<string>();
  const once = (file: string): boolean => {
    const key = fileKey(file);
    const page = PAGE_FILE.exec(key);
    if (files.has(key) || (page !== null && pages.has(`/${page[1] ?? ''}`))) return false;
    files.add(key);
    return true;
  };
  for (const file of Object.keys(saved.outputs)) if (leavesFolder(file) || posix.normalize(file) !== file || file.startsWith('/') || !once(file)) return file;
  for (const url of saved.media) {
    let file: string;
    try {
      // Normalised, and under media/ or it throws.
      file = mediaFileFor(url);
    } catch {
      return String(url);
    }
    if (leavesFolder(file) || !once(file)) return url;
  }
  return null;
}

/**
 * The path of the first saved page whose facts are not of the types saveBuildState writes (its links
 * included: each an index into the state's links), or null. The facts go to the checks, the report and
 * the next state as they are, so a damaged row must make the state not hold, not fail the build later.
 */
function firstMalformedPage(saved: SavedState): string | null {
  const count = (n: unknown): boolean => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  const strings = (list: unknown): boolean => Array.isArray(list) && list.every((item) => typeof item === 'string');
  const links = Array.isArray(saved.links) ? saved.links.length : 0;
  for (const row of saved.pages as unknown[]) {
    if (!Array.isArray(row)) return String(row);
    const [path, route, hash, noindex, lastmod, bytes, title, ids, imagesWithoutAlt, htmlChars, payloadChars, overBudget, pageLinks] = row as unknown[];
    const whole =
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
      Array.isArray(pageLinks) &&
      pageLinks.every((id) => Number.isInteger(id) && (id as number) >= 0 && (id as number) < links && typeof saved.links[id as number] === 'string');
    if (!whole) return String(path);
  }
  return null;
}

/** A page's index.html or _payload.json, the page's path without its leading `/` in group 1. */
const PAGE_FILE = /^(?:(.+)\/)?(?:index\.html|_payload\.json)$/;

/**
 * The first file an incremental build would keep that is not on disk as the previous build wrote it,
 * or null: every page's index.html and _payload.json (their sizes together must be the page's recorded
 * bytes; a page may have no payload file, but not one that is something else), every extra output and
 * every media file. Only sizes: one stat per file, a few per page.
 */
async function firstKeptFileMissing(outDir: string, saved: SavedState): Promise<string | null> {
  /** The file's size; ABSENT when nothing is there; -1 when it is not a plain file (a folder, a FIFO, a link) or cannot be looked at. */
  const size = (file: string): number => {
    try {
      const info = lstatSync(join(outDir, file), { throwIfNoEntry: false });
      return info === undefined ? ABSENT : info.isFile() ? info.size : -1;
    } catch {
      // Not a folder on the way, a loop of links, no permission: as good as missing.
      return -1;
    }
  };
  let checked = 0;
  // Between runs of files the event loop turns, so the requests and reads started beside it go on.
  const turn = async (): Promise<void> => {
    if (++checked % KEPT_CHECK_RUN === 0) await new Promise((resolve) => setImmediate(resolve));
  };
  for (const [path, , , , , bytes] of saved.pages) {
    const html = size(htmlFileFor(path));
    const payload = size(payloadFileFor(path));
    if (html < 0 || payload === -1 || html + Math.max(payload, 0) !== bytes) return path;
    await turn();
  }
  for (const file of [...Object.keys(saved.outputs), ...saved.media.map((url) => mediaFileFor(url))]) {
    if (size(file) < 0) return `/${file}`;
    await turn();
  }
  return null;
}

/**
 * Pages or files checked between turns of the event loop. The stats are synchronous: at 10,803 pages
 * (25,800 files) the promise API took 0.4-0.5 s of the main thread, synchronous calls about 0.1 s.
 */
const KEPT_CHECK_RUN = 1024;

/** What firstKeptFileMissing's stat gives for a file that is not there at all. */
const ABSENT = -2;

/** The folder's identity on disk: a folder copied or restored from elsewhere has another. */
async function folderIdentity(dir: string): Promise<string> {
  const info = await stat(dir, { bigint: true });
  return `${info.dev}:${info.ino}:${info.birthtimeNs}`;
}

/** The hash of a page's index.html and _payload.json as they are on disk ('' for a missing file). */
async function samplePage(outDir: string, path: string): Promise<string> {
  const read = (file: string): Promise<Buffer | string> => readBytes(join(outDir, file)).catch(() => '');
  const [html, payload] = await Promise.all([read(htmlFileFor(path)), read(payloadFileFor(path))]);
  return createHash('sha1').update(html).update('\0').update(payload).digest('base64url');
}

type SavedPage = [
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

interface SavedState {
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
function savedSearch(saved: unknown): SearchIndexState | null {
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
function savedWarnings(saved: unknown): ContentWarning[] | null {
  if (!Array.isArray(saved)) return null;
  const warnings: ContentWarning[] = [];
  for (const w of saved as Partial<Record<keyof ContentWarning, unknown>>[]) {
    const { check, page, route, message, fix } = w ?? {};
    if (!isCheckName(check) || typeof page !== 'string' || typeof route !== 'string' || typeof message !== 'string' || typeof fix !== 'string') return null;
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
function savedMedia(media: unknown, urls: readonly string[]): string | undefined {
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

/** Where the feed stood after a build that changed nothing, and which save of the state that was. */
interface MovedCursor {
  save: string;
  cursor: string;
  /** HMAC of the two under the cache key: a cursor moved on by a cache writer would skip changes. */
  mac: string;
}

/** The cursor a later build that changed nothing moved the state `save` on to; null: none, or for another save. */
async function movedCursor(cacheDir: string, outDir: string, save: string): Promise<string | null> {
  const text = await readFile(cursorFileFor(cacheDir, outDir), 'utf8').catch(() => 'null');
  let moved: Partial<MovedCursor> | null;
  try {
    moved = JSON.parse(text) as Partial<MovedCursor> | null;
  } catch {
    // A damaged file only loses the move: the state's own, older cursor asks for the same changes again.
    return null;
  }
  if (typeof save !== 'string' || moved?.save !== save || typeof moved.cursor !== 'string' || typeof moved.mac !== 'string') return null;
  return cacheKeyFor(cacheDir).verify(Buffer.from(moved.mac, 'hex'), CURSOR_MAC_CONTEXT, save, moved.cursor) ? moved.cursor : null;
}

/** What the state's and the moved cursor's MACs are taken over besides their text. */
const STATE_MAC_CONTEXT = 'site-build-state/1';
const CURSOR_MAC_CONTEXT = 'site-build-cursor/1';

/**
 * A state's JSON text (without a `mac` member) signed as saveBuildState signs it: for tests that alter a
 * state on purpose, to reach the checks behind the signature (as a writer holding the key would).
 */
export function signedStateText(cacheDir: string, json: string): string {
  return sealJson(cacheKeyFor(cacheDir), STATE_MAC_CONTEXT, json);
}

function cursorFileFor(cacheDir: string, outDir: string): string {
  return stateFileFor(cacheDir, outDir).replace(/\.json$/, '.cursor.json');
}

/** One state file per output folder, in the build cache. */
function stateFileFor(cacheDir: string, outDir: string): string {
  return join(cacheDir, 'builds', `${createHash('sha256').update(outDir).digest('hex').slice(0, 16)}.json`);
}
