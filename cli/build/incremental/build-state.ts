import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, open, readdir, readFile, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import type { InspectedSite } from '../../checks/collect.ts';
import type { ContentWarning } from '../../checks/run.ts';
import { cacheKeyFor, sealJson } from '../../config/cache-key.ts';
import type { SearchIndexState } from '../../output/search-index.ts';
import { writeFileAtomic } from '../../output/write.ts';
import {
  decodePage,
  encodePage,
  linksByPage,
  savedSearch,
  savedWarnings,
  STATE_VERSION,
  writeJsonList,
  type DamagedPage,
  type FeedState,
  type PageRecordForState,
  type RememberedPage,
  type SavedPage,
  type SavedState,
} from './state-format.ts';
import { folderIdentity, samplePages, whyStateDoesNotHold } from './state-trust.ts';

export { seenWhole, type FeedState, type PageRecordForState, type RememberedPage } from './state-format.ts';

/**
 * What a build remembers about the output it wrote, in the build cache, so the next build into the
 * same folder can rewrite only what changed: each page's input hash and what the checks, the sitemap
 * and the report need from it (its rendered facts), the extra outputs' hashes and the media it copied.
 * Saved and loaded here; the file's format is state-format.ts's, whether a state holds state-trust.ts's.
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
  /** Sampled pages and the hash of each as that build wrote it (state-trust.ts): checked again by a state read ahead when it is used (state-memory.ts). */
  sample: readonly (readonly [string, string])[];
}

/** Records of pages by their index: build/incremental/page-records.ts PageRecords, or a plain array of them. */
export interface PageRecordList {
  readonly length: number;
  at(index: number): PageRecordForState | undefined;
}

/** The hash that decides whether a page must be rendered again: its route, its path and its data. */
export function pageHash(routeId: string, path: string, json: string): string {
  return createHash('sha1').update(routeId).update('\0').update(path).update('\0').update(json).digest('base64url');
}

/**
 * The state of the build in `outDir`, or why a full build is needed: no state, a state from an older
 * format, another build id (client code, options or site-wide data changed), another generator
 * (generator-fingerprint.ts: server-side code, site code, shell, dependencies, options), or an output
 * folder that is no longer the one the state describes (checked cheaply: the folder's identity on
 * disk, and the bytes of a few sampled pages).
 */
export async function loadBuildState(
  cacheDir: string,
  outDir: string,
  generator: string,
): Promise<{ state: BuildState } | { state: null; reason: string }> {
  const none = (reason: string): { state: null; reason: string } => ({ state: null, reason });
  try {
    const text = await readFile(stateFileFor(cacheDir, outDir), 'utf8').catch(() => null);
    if (text === null) return none('no previous build of this folder in the build cache');
    // What it says decides which pages are kept unread and what the outputs say of them: believed only as a build holding the cache key wrote it.
    if (!cacheKeyFor(cacheDir).sealedJson(STATE_MAC_CONTEXT, text))
      return none(
        "the build cache's state is not signed with this build's cache key (SITE_CACHE_KEY or the key file changed, or the cache was altered)",
      );
    const saved = JSON.parse(text) as SavedState;
    if (saved.version !== STATE_VERSION || saved.outDir !== outDir) return none('the build cache holds another format');
    if (saved.generator !== generator)
      return none(
        "the generator's or the site's code, the document shell, a dependency, Node.js or an option changed since the previous build",
      );
    const rows = decodedPages(saved);
    const distrust = await whyStateDoesNotHold(outDir, saved, rows);
    if (distrust !== null) return none(distrust);
    return { state: stateOf(saved, rows as RememberedPage[], await movedCursor(cacheDir, outDir, saved.save)) };
  } catch (error) {
    return none(`the previous build could not be read (${(error as Error).message})`);
  }
}

/** A saved state's rows, each decoded (decodePage) against its tables; a table of the wrong shape is an empty one. */
function decodedPages(saved: SavedState): (RememberedPage | DamagedPage)[] {
  const tables = {
    links: Array.isArray(saved.links) ? saved.links : [],
    items: Array.isArray(saved.items) ? saved.items : [],
    media: saved.media,
  };
  return saved.pages.map((row) => decodePage(row, tables));
}

/** The state a saved state's text holds, its rows decoded as `pages`, its feed at the moved cursor when there is one. */
function stateOf(saved: SavedState, pages: readonly RememberedPage[], movedTo: string | null): BuildState {
  const byPath = new Map<string, RememberedPage>();
  for (const page of pages) byPath.set(page.inspected.path, page);
  return {
    buildId: saved.buildId,
    save: saved.save,
    pages: byPath,
    outputs: new Map(Object.entries(saved.outputs)),
    media: new Set(saved.media),
    search: savedSearch(saved.search),
    feed: saved.feed ? { ...saved.feed, cursor: movedTo ?? saved.feed.cursor } : null,
    warnings: savedWarnings(saved.warnings),
    sample: saved.sample,
  };
}

/** The files loadBuildState reads of the build cache's record of `outDir`: the state and its moved cursor. */
export function stateFilesFor(cacheDir: string, outDir: string): string[] {
  return [stateFileFor(cacheDir, outDir), cursorFileFor(cacheDir, outDir)];
}

/**
 * Removes the state of `outDir` and its moved cursor, before an update in place commits: the folder then
 * holds another build under the same build id and timestamp, which the trust checks cannot tell from the
 * one the state describes (a page whose size did not change). Should the new state never be saved (the
 * process killed, the save failed), the next build renders every page rather than go on from the old one.
 */
export async function forgetBuildState(cacheDir: string, outDir: string): Promise<void> {
  await Promise.all(stateFilesFor(cacheDir, outDir).map((file) => rm(file, { force: true })));
}

/** Whether the build cache holds a state for `outDir` at all (whether it still holds is loadBuildState's to say). */
export function hasBuildState(cacheDir: string, outDir: string): boolean {
  return existsSync(stateFileFor(cacheDir, outDir));
}

/**
 * Saves the state of the build just committed to `outDir` (atomically: a torn file would be read as none).
 * With `keep`, returns that state as the next build would read it back (loadBuildState): the same text
 * parsed and decoded, for a process that builds the folder again (state-memory.ts), without reading the
 * file back or checking its signature; and `whyNot`, loadBuildState's trust checks of that text against
 * the folder (state-trust.ts whyStateDoesNotHold), to run before the state is used.
 */
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
  { keep = false }: { keep?: boolean } = {},
): Promise<KeptState | null> {
  // What the state refers to in the cache, first: a state is never on disk without it (build/cache-prune.ts).
  await saveCacheUses(cacheDir, outDir, state.uses);
  const pages = state.site.pages;
  const sample = await samplePages(outDir, pages);
  const folder = await folderIdentity(outDir);
  // Item ids, once each: pages refer to them by index.
  const itemIds = new Map<string, number>();
  const itemIndex = (id: string): number => itemIds.get(id) ?? (itemIds.set(id, itemIds.size), itemIds.size - 1);
  const media = [...state.media].sort();
  const mediaIndex = new Map(media.map((url, i) => [url, i]));
  const index = { item: itemIndex, media: (url: string): number => mediaIndex.get(url) ?? -1 };
  // A link's id is its place in the inspector's map of links, which the state lists in that order.
  const pageLinks = linksByPage(state.site.links, pages.length);
  const links = keep ? [...state.site.links.keys()] : state.site.links.keys();
  const head: Omit<SavedState, 'pages' | 'links' | 'items' | 'outputs' | 'media' | 'warnings'> = {
    version: STATE_VERSION,
    save: randomUUID(),
    buildId: state.buildId,
    generator: state.generator,
    timestamp: state.timestamp,
    outDir,
    folder,
    sample,
    search: state.search,
    feed: state.feed,
  };
  const headText = JSON.stringify(head);
  const outputsText = JSON.stringify(Object.fromEntries(state.outputs));
  const warningsText = JSON.stringify(state.warnings);
  // With keep: the rows as the file holds them, parsed again part by part.
  const rows: unknown[] = [];
  // Written a thousand pages at a time, and the long lists of strings in parts: at 100,000 pages the
  // whole state as one string would be the largest thing the build ever holds, and the list of links
  // alone (160,000 of them) was a 10 MB string at the build's end, where its memory peaks.
  await writeFileAtomic(stateFileFor(cacheDir, outDir), async (temp) => {
    const file = await open(temp, 'w');
    // Everything written is signed as it goes; the signature closes the file (loadBuildState checks it).
    const seal = cacheKeyFor(cacheDir).jsonSeal(STATE_MAC_CONTEXT);
    const out = { write: (text: string) => (seal.update(text), file.write(text)) };
    try {
      await out.write(`${headText.slice(0, -1)},"links":`);
      await writeJsonList(out, links);
      await out.write(`,"pages":[`);
      for (let start = 0; start < pages.length; start += 1000) {
        const part: string[] = [];
        for (let i = start; i < Math.min(start + 1000, pages.length); i++) {
          const ids = [...pageLinks.ids.subarray(pageLinks.starts[i], pageLinks.starts[i + 1])];
          part.push(JSON.stringify(encodePage(pages.at(i), state.records.at(i)!, ids, index)));
        }
        const text = part.join(',');
        await out.write((start > 0 ? ',' : '') + text);
        if (keep) for (const row of JSON.parse(`[${text}]`) as unknown[]) rows.push(row);
      }
      await out.write(`],"items":`);
      await writeJsonList(out, itemIds.keys());
      await out.write(`,"outputs":${outputsText},"media":`);
      await writeJsonList(out, media);
      await out.write(`,"warnings":${warningsText}`);
      await file.write(seal.end());
    } finally {
      await file.close();
    }
  });
  if (!keep) return null;
  const saved: SavedState = {
    ...(JSON.parse(headText) as typeof head),
    links: links as string[],
    pages: rows as SavedPage[],
    items: [...itemIds.keys()],
    outputs: JSON.parse(outputsText) as SavedState['outputs'],
    media,
    warnings: JSON.parse(warningsText) as unknown,
  };
  const decoded = decodedPages(saved);
  return {
    state: stateOf(
      saved,
      decoded.filter((page): page is RememberedPage => !('damaged' in page)),
      null,
    ),
    whyNot: () => whyStateDoesNotHold(outDir, saved, decoded),
  };
}

/** A state saveBuildState saved and kept, and why it does not hold for its folder (null: it holds), as loadBuildState would say. */
export interface KeptState {
  state: BuildState;
  whyNot(): Promise<string | null>;
}

/**
 * Moves the saved state of the build in `outDir` on to a new change-feed cursor, for a build that found
 * nothing to change (build/incremental/unchanged.ts): everything else it remembers still holds. The cursor goes to a
 * small file beside the state, which names the state it belongs to (its `save`), rather than into the
 * state itself: rewriting 5.8 MB of state at 10,803 pages to move one cursor took about 100 ms, and a
 * feed's cursor moves at every build (the embedded backend's holds the time it was given).
 */
export async function saveFeedCursor(cacheDir: string, outDir: string, previous: Pick<BuildState, 'save'>, cursor: string): Promise<void> {
  const moved: MovedCursor = {
    save: previous.save,
    cursor,
    mac: cacheKeyFor(cacheDir).sign(CURSOR_MAC_CONTEXT, previous.save, cursor).toString('hex'),
  };
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
    states.push({
      files: files.map((name) => join(dir, name)),
      outDir: whole ? saved.outDir : null,
      hasState: files.includes(`${id}.json`),
      builtAt,
      bytes,
      uses: whole ? saved.uses : null,
    });
  }
  return states.sort((a, b) => b.builtAt - a.builtAt);
}

/**
 * Notes that a build into `outDir` just finished without rewriting its state (build/incremental/unchanged.ts): the
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

/** A file of the state of one output folder: the state, its moved cursor, its uses; a temporary file of either. */
const STATE_FILE = /^([0-9a-f]{16})\.(?:json|cursor\.json|uses\.json)(?:\.[^/]*\.tmp|\.tmp[^/]*)?$/;

interface SavedUses {
  version: 1;
  outDir: string;
  uses: CacheUses;
}

/** Saves the cache entries the build into `outDir` used (saveBuildState's first step; a shard's only record). */
export async function saveCacheUses(cacheDir: string, outDir: string, uses: CacheUses): Promise<void> {
  const saved: SavedUses = {
    version: 1,
    outDir,
    uses: Object.fromEntries(Object.entries(uses).map(([kind, keys]) => [kind, [...new Set(keys)].sort()])),
  };
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
