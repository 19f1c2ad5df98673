import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { SEARCH_DIR } from '../../runtime/shared/contract.ts';
import { htmlFileFor } from '../../runtime/shared/paths.ts';
import { BuildErrors, createBuildError, isBuildError } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import { compareSearchedPages, searchDocuments, usesMainContent, type SearchedPage } from '../render/search-documents.ts';
import { readBytes, readText } from './read.ts';
import { formatBytes, formatCount, formatDuration, plural } from '../terminal/format.ts';
import type { Logger } from '../terminal/logger.ts';

/**
 * The site search's index (issue 21): Pagefind reads the documents of every searched page
 * (render/search-documents.ts) and writes a static index that the search page loads in fragments, with
 * no search server. Pagefind runs as a process of its own (its binary comes from npm).
 *
 * The index is built once every page is on disk, from the pages' files, in route and path order:
 * Pagefind numbers pages in the order it is given them, so an order that does not depend on which
 * render thread finished first, or on which pages an update in place kept, makes the same bytes on
 * every build of the same content (threads or not, sharded and merged or not, in place or not).
 * Pagefind cannot update an index in part, so an update in place indexes the pages it keeps too, from
 * the previous output's files.
 */

export interface SearchIndexInput {
  /** The pages that give the search entries, in any order. */
  pages: readonly SearchedPage[];
  /** The staging folder, which holds every page rendered by this build. */
  siteDir: string;
  /**
   * The build updated in place: its output folder (which holds the pages this build keeps, and its index),
   * the key of its index and its extra outputs' files. Null for a full build.
   */
  previous: { outDir: string; searchKey: string | null; outputs: ReadonlyMap<string, string> } | null;
  /** CSS selectors left out of each page's main content (site/site.config.ts `search.exclude`). */
  exclude: readonly string[];
  /** The site's language: one index, stemmed for it. */
  language: string;
}

/** One file of the index, relative to the site root. */
export interface SearchFile {
  file: string;
  content: Uint8Array;
}

/** The index being built: its files once it is done (an extra output for the extras step), or stopped. */
export interface SearchIndexBuild {
  /** What the index is built from (searchIndexKey), for the build state. */
  key: string;
  files(): Promise<SearchFile[]>;
  /** Stops a build that is no longer wanted (the site build failed) and waits until Pagefind lets go of it. */
  close(): Promise<void>;
}

/**
 * Starts building the index now, so it runs while the build finishes its other work; the extras step
 * writes its files (skipping those an update in place already has, and removing those it no longer has).
 */
export function buildSearchIndex(input: SearchIndexInput, logger: Pick<Logger, 'info'>): SearchIndexBuild {
  const control = { stopped: false };
  const key = searchIndexKey(input);
  const reused = input.previous && input.previous.searchKey === key ? [...input.previous.outputs.keys()].filter((file) => file.startsWith(`${SEARCH_DIR}/`)) : [];
  const work = (reused.length > 0 ? readIndex(input.previous!.outDir, reused) : indexPages(input, control)).then(({ files, documents, ms }) => {
    const bytes = files.reduce((sum, f) => sum + f.content.length, 0);
    const what = documents === null ? 'unchanged, kept' : `${formatCount(documents)} ${documents === 1 ? 'entry' : 'entries'} from ${plural(input.pages.length, 'page')}`;
    logger.info('search', `${what}: ${formatBytes(bytes)} in ${plural(files.length, 'file')}, in ${formatDuration(ms)}`);
    return files;
  });
  // Awaited by the extras step; a build that fails before then must not see it as unhandled.
  work.catch(() => undefined);
  return {
    key,
    files: () => work,
    async close() {
      control.stopped = true;
      await work.catch(() => undefined);
    },
  };
}

/**
 * What decides the index's bytes: every searched page's route, path and page hash (which, with the code,
 * decides its HTML and its entries: an update in place happens only when the code is unchanged), in the
 * order the index takes them, and the options. An update in place with the same key keeps the previous
 * index as it is, since building it again would give the same bytes.
 */
export function searchIndexKey(input: Pick<SearchIndexInput, 'pages' | 'exclude' | 'language'>): string {
  const hash = createHash('sha256').update(JSON.stringify({ version: KEY_VERSION, exclude: input.exclude, language: input.language }));
  for (const page of [...input.pages].sort(compareSearchedPages)) hash.update('\0').update(String(page.route)).update('\0').update(page.path).update('\0').update(page.hash);
  return hash.digest('base64url');
}

// --- internal ---

/** Bumped when the documents the index is built from change shape (search-documents.ts). */
const KEY_VERSION = 1;

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
 * The files the search page needs: the API and its worker, the WebAssembly and the index itself. Pagefind's
 * own ready-made interfaces (pagefind-ui.js and the like, 400 kB) are left out: the site renders results
 * with its own components.
 */
const KEPT = /^(?:pagefind\.js|pagefind-worker\.js|pagefind-entry\.json|wasm\.[a-z-]+\.pagefind|pagefind\.[^/]+\.pf_meta|(?:index|fragment|filter)\/[^/]+)$/;

/** Indexes open in this process: Pagefind's one process stops when the last closes. */
let open = 0;

/** The previous build's index, read back from the output folder it is updating in place. */
async function readIndex(outDir: string, files: readonly string[]): Promise<{ files: SearchFile[]; documents: null; ms: number }> {
  const started = performance.now();
  const read = await Promise.all(files.map(async (file) => ({ file, content: new Uint8Array(await readBytes(join(outDir, file))) })));
  return { files: read, documents: null, ms: performance.now() - started };
}

async function indexPages(input: SearchIndexInput, control: { stopped: boolean }): Promise<{ files: SearchFile[]; documents: number; ms: number }> {
  const started = performance.now();
  open++;
  try {
    const created = await pagefind.createIndex({ excludeSelectors: [...input.exclude], forceLanguage: input.language, maxFragments: MAX_FRAGMENTS }).catch((error: unknown) => ({ errors: [describeCause(error)], index: undefined }));
    if (!created.index) throw failure(created.errors.join('; ') || 'Pagefind did not start');
    const index = created.index;
    try {
      const pages = [...input.pages].sort(compareSearchedPages);
      const reads: Promise<string>[] = [];
      const read = (page: SearchedPage): Promise<string> =>
        usesMainContent(page.entries) ? readText(join(page.kept && input.previous ? input.previous.outDir : input.siteDir, htmlFileFor(page.path))) : Promise.resolve('');
      const inFlight = new Set<Promise<void>>();
      let failed: Error | null = null;
      let documents = 0;
      for (let i = 0; i < pages.length; i++) {
        while (reads.length < READ_AHEAD && i + reads.length < pages.length) {
          const next = read(pages[i + reads.length]!);
          // Read ahead: one that fails after the loop has given up is nobody's error.
          next.catch(() => undefined);
          reads.push(next);
        }
        const html = await reads.shift()!;
        for (const document of searchDocuments(pages[i]!, html, input.language)) {
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
        if (control.stopped) throw new Error('The site search index was stopped: the build failed.');
      }
      await Promise.all(inFlight);
      if (failed) throw failed;
      const { errors, files } = await index.getFiles().catch((error: unknown) => ({ errors: [describeCause(error)], files: [] }));
      if (errors.length > 0) throw failure(errors.join('; '));
      return {
        files: files.filter((file) => KEPT.test(file.path)).map((file) => ({ file: `${SEARCH_DIR}/${file.path}`, content: file.content })),
        documents,
        ms: performance.now() - started,
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

function failure(cause: string): Error {
  return createBuildError(BuildErrors.SearchIndexFailed, [cause]);
}
