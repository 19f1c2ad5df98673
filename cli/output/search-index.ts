import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { SEARCH_DIR, SEARCH_PARTS_FILE } from '../../runtime/shared/contract.ts';
import { htmlFileFor, pathHash } from '../../runtime/shared/paths.ts';
import { contentHash } from './content-hash.ts';
import { BuildErrors, createBuildError, isBuildError } from '../errors/errors.ts';
import { compareText } from '../../runtime/shared/compare.ts';
import { describeCause } from '../errors/format-error.ts';
import {
  compareSearchedPages,
  documentsHash,
  searchDocuments,
  usesMainContent,
  type SearchDocument,
  type SearchedPage,
} from '../render/search-documents.ts';
import { readBytes, readText } from './read.ts';
import { openSearchCache, type CachedFile } from './search-cache.ts';
import { whichPagefind } from '../config/pagefind-run.ts';
import { mapAhead } from '../content/read-ahead.ts';
import { formatBytes, formatCount, formatDuration, plural } from '../terminal/format.ts';
import type { Logger } from '../terminal/logger.ts';

/**
 * The site search's index (issue 21): Pagefind reads the documents of every searched page
 * (render/search-documents.ts) and writes a static index that the search page loads in fragments, with
 * no search server. Pagefind runs as a process of its own (its binary comes from npm).
 *
 * A large site's index is cut into partitions of about `partitionPages` pages each (2,000 unless
 * SITE_SEARCH_PARTITION_PAGES says otherwise: cli/config/config.ts), a page's partition
 * chosen by a hash of its path: each partition is an index of its own, which the search page merges
 * (Pagefind's mergeIndex), so an update in place builds again only the partitions whose pages' documents
 * changed, and Pagefind holds one partition at a time. Partition 0 sits in `_search/` with Pagefind's
 * code; partition n in `_search/part-n/`; SEARCH_PARTS_FILE lists the others.
 *
 * Each partition is built once every page is on disk, from the pages' files, in route and path order:
 * Pagefind numbers pages in the order it is given them, so an order that does not depend on which
 * render thread finished first, or on which pages an update in place kept, makes the same bytes on
 * every build of the same content (threads or not, sharded and merged or not, in place or not). A
 * partition's key is the hash of its pages' documents in that order: an update in place keeps the
 * previous build's files of a partition with the same key, since building it again would give the same bytes.
 */

export interface SearchIndexInput {
  /** The pages that give the search entries, in any order. */
  pages: readonly SearchedPage[];
  /** The staging folder, which holds every page rendered by this build. */
  siteDir: string;
  /**
   * The build updated in place: its output folder (which holds the pages this build keeps, and its index),
   * its index's state and its extra outputs' files. Null for a full build.
   */
  previous: { outDir: string; search: SearchIndexState | null; outputs: ReadonlyMap<string, string> } | null;
  /** CSS selectors left out of each page's main content (site/site.config.ts `search.exclude`). */
  exclude: readonly string[];
  /** The site's language: one index, stemmed for it. */
  language: string;
  /** The build cache, where partitions are kept by their key for later full builds (search-cache.ts); null for none. */
  cacheDir: string | null;
  /** Searched pages per partition (ResolvedConfig `searchPartitionPages`). */
  partitionPages: number;
}

/** What the build state keeps of the site search's index (saved in build/incremental/build-state.ts), for the next update in place. */
export interface SearchIndexState {
  /** Each partition's key and files, in partition order. */
  partitions: { key: string; files: string[] }[];
  /** Each searched page's path and the hash of its documents, in index order. */
  docs: [path: string, hash: string][];
}

/** One file of the index, relative to the site root. */
export interface SearchFile {
  file: string;
  content: Uint8Array;
}

/** The index being built: its files once it is done (an extra output for the extras step), or stopped. */
export interface SearchIndexBuild {
  /** What the build state keeps of it, once its files are. */
  state(): Promise<SearchIndexState>;
  files(): Promise<SearchFile[]>;
  /** The build cache's entries (output/search-cache.ts) the index was taken from, written to or kept. */
  cacheKeys(): Promise<readonly string[]>;
  /** Stops a build that is no longer wanted (the site build failed) and waits until Pagefind lets go of it. */
  close(): Promise<void>;
}

/**
 * Starts building the index now, so it runs while the build finishes its other work; the extras step
 * writes its files (skipping those an update in place already has, and removing those it no longer has).
 */
export function buildSearchIndex(input: SearchIndexInput, logger: Pick<Logger, 'info'>): SearchIndexBuild {
  const control = { stopped: false };
  const work = indexPartitions(input, control).catch((error: unknown) => {
    throw isBuildError(error) ? error : failure(describeCause(error));
  });
  const logged = work.then((built) => {
    const bytes = built.files.reduce((sum, f) => sum + f.content.length, 0);
    logger.info(
      'search',
      `${whatWasDone(built)}: ${formatBytes(bytes)} in ${plural(built.files.length, 'file')}, in ${formatDuration(built.ms)}`,
    );
    return built;
  });
  // Awaited by the extras step; a build that fails before then must not see it as unhandled.
  logged.catch(() => undefined);
  return {
    state: async () => (await logged).state,
    files: async () => (await logged).files,
    cacheKeys: async () => (await logged).cacheKeys,
    async close() {
      control.stopped = true;
      await logged.catch(() => undefined);
    },
  };
}

/** What the log says of the index: built, kept from the previous build, or taken from the build cache, by partition. */
function whatWasDone({ documents, pages, rebuilt, cached, kept, state }: Built): string {
  const partitions = state.partitions.length;
  const others = kept > 0 ? ', the others kept' : '';
  const fromCache = partitions === 1 ? 'from the build cache' : `${cached} of ${partitions} partitions from the build cache`;
  if (documents === null) return cached === 0 ? 'unchanged, kept' : fromCache + others;
  const entries = `${formatCount(documents)} ${documents === 1 ? 'entry' : 'entries'} from ${plural(pages, 'page')}`;
  if (partitions === 1) return entries;
  if (rebuilt === partitions) return `${entries} in ${partitions} partitions`;
  return `${entries} (${rebuilt} of ${partitions} partitions built${cached > 0 ? `, ${cached} from the build cache` : ''}${others})`;
}

/** How many partitions an index of `pages` searched pages is cut into. */
export function partitionCount(pages: number, partitionPages: number): number {
  return Math.max(1, Math.ceil(pages / partitionPages));
}

/** The partition a page's entries go to: a hash of its path, so a page stays in its partition while the count holds. */
export function partitionOf(path: string, count: number): number {
  return count === 1 ? 0 : pathHash(path) % count;
}

/** Where partition `n`'s files go, relative to the site root, with the trailing slash. */
export function partitionDir(n: number): string {
  return n === 0 ? `${SEARCH_DIR}/` : `${SEARCH_DIR}/part-${n}/`;
}

// --- internal ---

/** Bumped when the documents the index is built from, or its partitions' layout, change shape. */
const KEY_VERSION = 3;

/** Characters of documents an update in place holds between hashing them and giving them to Pagefind. */
const HELD_CHARACTERS = 32 * 1024 * 1024;

/** Documents handed to Pagefind and not yet answered: enough to keep its process busy, few enough to hold little. */
const MAX_IN_FLIGHT = 64;

/** Page files read ahead of Pagefind. */
const READ_AHEAD = 16;

/**
 * Pages whose result fragments share a file: a site of 10,000 pages gets about a thousand fragment files
 * (each a few pages) instead of ten thousand, as fast to build and a tenth of the files to write.
 */
const MAX_FRAGMENTS = 1000;

/**
 * The files the search page needs: the API and its worker, the WebAssembly and the index itself (every
 * partition's own index; the code and WebAssembly only in partition 0's). Pagefind's own ready-made
 * interfaces (pagefind-ui.js and the like, 400 kB) are left out: the site renders results with its own components.
 */
const KEPT_CODE = /^(?:pagefind\.js|pagefind-worker\.js|wasm\.[a-z-]+\.pagefind)$/;
const KEPT_INDEX = /^(?:pagefind-entry\.json|pagefind\.[^/]+\.pf_meta|(?:index|fragment|filter)\/[^/]+)$/;

/** Indexes open in this process: Pagefind's one process stops when the last closes. */
let open = 0;

interface Built {
  files: SearchFile[];
  state: SearchIndexState;
  /** Entries given to Pagefind, or null when every partition was kept. */
  documents: number | null;
  /** Pages of the partitions built. */
  pages: number;
  rebuilt: number;
  /** Partitions taken from the build cache, and kept from the previous build. */
  cached: number;
  kept: number;
  ms: number;
  cacheKeys: string[];
}

async function indexPartitions(input: SearchIndexInput, control: { stopped: boolean }): Promise<Built> {
  const started = performance.now();
  const pages = [...input.pages].sort(compareSearchedPages);
  const count = partitionCount(pages.length, input.partitionPages);
  const partitions: SearchedPage[][] = Array.from({ length: count }, () => []);
  for (const page of pages) partitions[partitionOf(page.path, count)]!.push(page);
  const read = (page: SearchedPage): Promise<string> =>
    usesMainContent(page.entries)
      ? readText(join(page.kept && input.previous ? input.previous.outDir : input.siteDir, htmlFileFor(page.path)))
      : Promise.resolve('');
  const documentsOf = async (page: SearchedPage): Promise<SearchDocument[]> =>
    searchDocuments(page, await read(page), input.language, input.exclude);
  const cache = input.cacheDir && whichPagefind() !== null ? openSearchCache(input.cacheDir) : null;

  // With the previous build's index cut as this one is, a partition whose pages' documents are as they
  // were keeps its files: a kept page's documents are the previous build's (same code, same data), the
  // others are read now. Without it, a partition whose key the build cache holds takes its files there.
  const previous = input.previous?.search?.partitions.length === count ? input.previous.search : null;
  // A page rendered now brings its documents' hash from where it was rendered.
  const known = new Map<string, string>(previous ? previous.docs : []);
  for (const page of pages) if (page.documents !== undefined) known.set(page.path, page.documents);
  const unknown = (page: SearchedPage): boolean => page.documents === undefined && !(page.kept && known.has(page.path));
  // The documents of a partition's other pages (those a merge of shards reads back, or kept ones the
  // previous index does not know), read and hashed before its key is known, are held for Pagefind should
  // it be built, up to a point (past it: read again there). The next partition's are read while Pagefind
  // indexes one.
  const prepare = async (members: readonly SearchedPage[]): Promise<Map<string, SearchDocument[]>> => {
    const made = new Map<string, SearchDocument[]>();
    if (!previous && !cache) return made;
    let held = 0;
    for await (const [page, documents] of mapAhead(
      members.filter(unknown),
      READ_AHEAD,
      async (page) => [page, await documentsOf(page)] as const,
    )) {
      if (control.stopped) throw stoppedError();
      known.set(page.path, documentsHash(documents));
      const size = documents.reduce((sum, d) => sum + d.html.length, 0);
      // Two partitions' at most: the one being built and the next.
      if (held + size > HELD_CHARACTERS / 2) continue;
      made.set(page.path, documents);
      held += size;
    }
    return made;
  };

  const files: SearchFile[] = [];
  const state: SearchIndexState = { partitions: [], docs: [] };
  let documents = 0;
  let rebuilt = 0;
  let cached = 0;
  let keptCount = 0;
  let indexed = 0;
  // One partition at a time: two at once were no faster on two cores (10,803 pages: the index in 16.3 and
  // 18.4 s against 14.8 and 17.3 s) and held two partitions' memory.
  const parts: string[] = [];
  let next = prepare(partitions[0]!);
  try {
    for (const [n, members] of partitions.entries()) {
      const made = await next;
      if (control.stopped) throw stoppedError();
      if (n + 1 < count) {
        next = prepare(partitions[n + 1]!);
        // Awaited next time round, or below when the build stops before then.
        next.catch(() => undefined);
      }
      const key = partitionKey(input, n, count, members, known);
      // A partition no page fell into has no index (Pagefind's would name no language, which a merge refuses).
      if (members.length === 0 && n > 0) {
        state.partitions.push({ key, files: [] });
        continue;
      }
      const before = previous?.partitions[n];
      const kept = before?.key === key ? await readPartition(input.previous!, before.files, n) : null;
      const fromCache = kept || !cache ? null : inPartition(await cache.get(cacheKey(key, input, count)), n);
      const built =
        kept || fromCache
          ? null
          : await indexPages(members, n, count, input, control, async (page) => made.get(page.path) ?? (await documentsOf(page)), known);
      const own = kept ?? fromCache ?? built!.files;
      files.push(...own);
      // A partition built again has its pages' documents hashed as Pagefind took them.
      const builtKey = built ? partitionKey(input, n, count, members, known) : key;
      state.partitions.push({ key: builtKey, files: own.map((f) => f.file) });
      if (n > 0) parts.push(`/${partitionDir(n)}`);
      if (fromCache) cached++;
      if (kept) {
        keptCount++;
        // Still in use: prune leaves its entry, if the cache has one.
        await cache?.keep(cacheKey(key, input, count));
      }
      if (!built) continue;
      await cache?.put(cacheKey(builtKey, input, count), built.files);
      rebuilt++;
      indexed += members.length;
      documents += built.documents;
    }
  } catch (error) {
    // The next partition's reads stop too: the build fails.
    control.stopped = true;
    throw error;
  } finally {
    // A partition's documents still being read when the build stopped: not past the staging folder's removal.
    await next.catch(() => undefined);
  }
  files.push({ file: SEARCH_PARTS_FILE, content: new TextEncoder().encode(JSON.stringify(parts)) });
  state.docs = pages.map((page) => [page.path, known.get(page.path)!]);
  if (!control.stopped) await cache?.prune();
  return {
    files,
    state,
    documents: rebuilt === 0 ? null : documents,
    pages: indexed,
    rebuilt,
    cached,
    kept: keptCount,
    ms: performance.now() - started,
    cacheKeys: cache?.usedKeys() ?? [],
  };
}

/** What decides a partition's bytes: the options, its place, and its pages' routes, paths and documents in index order. */
function partitionKey(
  input: Pick<SearchIndexInput, 'exclude' | 'language'>,
  n: number,
  count: number,
  members: readonly SearchedPage[],
  docs: ReadonlyMap<string, string>,
): string {
  const hash = createHash('sha256').update(
    JSON.stringify({ version: KEY_VERSION, exclude: input.exclude, language: input.language, partition: n, of: count }),
  );
  for (const page of members)
    hash
      .update('\0')
      .update(String(page.route))
      .update('\0')
      .update(page.path)
      .update('\0')
      .update(docs.get(page.path) ?? '');
  return hash.digest('base64url');
}

/** What Pagefind is told when it creates a partition's index (what else decides its bytes: cacheKey). */
function indexOptions(input: Pick<SearchIndexInput, 'exclude' | 'language'>, count: number): pagefind.PagefindServiceConfig {
  // The site's fragment files shared among its partitions, so a partitioned index has as many files as one.
  return { excludeSelectors: [...input.exclude], forceLanguage: input.language, maxFragments: Math.ceil(MAX_FRAGMENTS / count) };
}

/**
 * The build cache's name for a partition of key `key`: besides the key, all that decides its bytes and
 * is not in it: what Pagefind is told (indexOptions), which Pagefind runs (its packages, its binary's
 * platform package among them, and the variables that name another binary), and which of its files the
 * site keeps. A change to how this module makes a partition's files bumps KEY_VERSION.
 */
function cacheKey(key: string, input: Pick<SearchIndexInput, 'exclude' | 'language'>, count: number): string {
  return createHash('sha256')
    .update(
      JSON.stringify({ key, options: indexOptions(input, count), pagefind: whichPagefind(), kept: [KEPT_CODE.source, KEPT_INDEX.source] }),
    )
    .digest('base64url');
}

/**
 * Files from the build cache if they are a whole partition `n` (each a name the index keeps in its folder,
 * none twice, its entry there, and partition 0 with Pagefind's code), else null: the partition is built.
 */
function inPartition(files: CachedFile[] | null, n: number): SearchFile[] | null {
  if (!files || !files.every((f) => isPartitionFile(f.file, n))) return null;
  const names = new Set(files.map((f) => f.file.slice(partitionDir(n).length)));
  const whole =
    names.size === files.length &&
    names.has('pagefind-entry.json') &&
    (n > 0 || (names.has('pagefind.js') && names.has('pagefind-worker.js') && [...names].some((name) => name.startsWith('wasm.'))));
  return whole ? files : null;
}

/** A file of partition `n`: in its folder, one of the names the index keeps, each part of the name plain. */
function isPartitionFile(file: string, n: number): boolean {
  const dir = partitionDir(n);
  const name = file.slice(dir.length);
  return (
    file.startsWith(dir) &&
    name.split('/').every((part) => PLAIN_NAME.test(part)) &&
    (KEPT_INDEX.test(name) || (n === 0 && KEPT_CODE.test(name)))
  );
}

/** A part of a file name Pagefind writes: letters, digits, dots, dashes and underscores, not only dots. */
const PLAIN_NAME = /^(?!\.+$)[A-Za-z0-9._-]{1,128}$/;

/**
 * A partition's files as the previous build wrote them, read back from the output folder it is updating
 * in place; null when the previous build's records of them do not hold (a name outside the partition's
 * folder, or one its outputs do not list), so the partition is built again.
 */
async function readPartition(
  previous: NonNullable<SearchIndexInput['previous']>,
  names: readonly string[],
  n: number,
): Promise<SearchFile[] | null> {
  // The partition's files are every file of the previous outputs in its folder (partition 0's: not in a part-n/ one), no more, no fewer.
  const expected = [...previous.outputs.keys()].filter((file) => isPartitionFile(file, n)).sort(compareText);
  if (expected.length === 0 || expected.join('\0') !== [...names].sort(compareText).join('\0')) return null;
  const files = await Promise.all(
    expected.map(async (file) => ({
      file,
      content: new Uint8Array(await readBytes(join(previous.outDir, file)).catch(() => Buffer.alloc(0))),
    })),
  );
  // As the previous build wrote them, or the partition is built again.
  return files.every((f) => contentHash(f.content) === previous.outputs.get(f.file)) ? files : null;
}

async function indexPages(
  pages: readonly SearchedPage[],
  n: number,
  count: number,
  input: SearchIndexInput,
  control: { stopped: boolean },
  documentsOf: (page: SearchedPage) => Promise<SearchDocument[]>,
  docs: Map<string, string>,
): Promise<{ files: SearchFile[]; documents: number }> {
  open++;
  try {
    // The site's fragment files shared among its partitions, so a partitioned index has as many files as one.
    const created = await pagefind
      .createIndex(indexOptions(input, count))
      .catch((error: unknown) => ({ errors: [describeCause(error)], index: undefined }));
    if (!created.index) throw failure(created.errors.join('; ') || 'Pagefind did not start');
    const index = created.index;
    try {
      const reads: Promise<SearchDocument[]>[] = [];
      const inFlight = new Set<Promise<void>>();
      let failed: Error | null = null;
      let documents = 0;
      for (let i = 0; i < pages.length; i++) {
        while (reads.length < READ_AHEAD && i + reads.length < pages.length) {
          const next = documentsOf(pages[i + reads.length]!);
          // Read ahead: one that fails after the loop has given up is nobody's error.
          next.catch(() => undefined);
          reads.push(next);
        }
        const pageDocuments = await reads.shift()!;
        docs.set(pages[i]!.path, documentsHash(pageDocuments));
        for (const document of pageDocuments) {
          documents++;
          const adding = index.addHTMLFile({ url: document.url, content: document.html }).then(
            ({ errors }) => void (errors.length > 0 && (failed ??= failure(`${document.url}: ${errors.join('; ')}`))),
            (error: unknown) => void (failed ??= failure(`${document.url}: ${describeCause(error)}`)),
          );
          inFlight.add(adding);
          void adding.finally(() => inFlight.delete(adding));
          while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
        }
        if (failed) throw failed;
        if (control.stopped) throw stoppedError();
      }
      await Promise.all(inFlight);
      if (failed) throw failed;
      const { errors, files } = await index.getFiles().catch((error: unknown) => ({ errors: [describeCause(error)], files: [] }));
      if (errors.length > 0) throw failure(errors.join('; '));
      const dir = partitionDir(n);
      return {
        files: files
          .filter((file) => KEPT_INDEX.test(file.path) || (n === 0 && KEPT_CODE.test(file.path)))
          .map((file) => ({ file: dir + file.path, content: file.content })),
        documents,
      };
    } finally {
      await index.deleteIndex().catch(() => undefined);
    }
  } catch (error) {
    throw isBuildError(error) ? error : failure(describeCause(error));
  } finally {
    open--;
    if (open === 0) await pagefind.close();
  }
}

function stoppedError(): Error {
  return new Error('The site search index was stopped: the build failed.');
}

function failure(cause: string): Error {
  return createBuildError(BuildErrors.SearchIndexFailed, [cause]);
}
