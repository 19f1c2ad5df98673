import { existsSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import pLimit from 'p-limit';
import type { RouteRule } from '../../runtime/shared/contract.ts';
import type { BuiltPages } from '../../runtime/shared/route-data.ts';
import { compareText } from '../../runtime/shared/compare.ts';
import { settleAll } from '../../runtime/shared/settle-all.ts';
import { contentHash } from './content-hash.ts';
import type { OutputTally } from '../report/output-size.ts';
import { renderRedirectPages } from './redirects.ts';
import { renderRobots, sitemapFiles, type SitemapEntry } from './sitemap.ts';
import { writeSiteFile } from './write.ts';

export interface ExtrasInput {
  /** The staging folder. */
  siteDir: string;
  /** The site's public/ folder, copied as it is. */
  publicDir: string;
  baseUrl: string;
  routeRules: Readonly<Record<string, RouteRule>>;
  csp: string | null;
  /** The rendered 404 page. */
  notFoundHtml: string;
  sitemap: Iterable<SitemapEntry>;
  /** Extra outputs (feeds, calendars, the search index) that have seen every page. */
  collectors: readonly OutputSource[];
  /** Any built page's data, for an output that kept less of a page than its files need (build/incremental/kept-pages.ts builtPages). */
  pages: BuiltPages;
  /** The previous build's outputs when it is updated in place: a file with the same hash is left as it is. */
  previousOutputs?: ReadonlyMap<string, string>;
  /** Pages per sitemap file. @default the protocol's 50,000 (sitemap.ts SITEMAP_URLS) */
  sitemapUrls?: number;
}

/** Files of an extra output as the extras step writes them: a site's outputs (runtime/shared/route-data.ts OutputCollector), or the search index's, which are bytes. */
export interface OutputSource {
  files(
    pages: BuiltPages,
  ): Iterable<{ file: string; content: string | Uint8Array }> | Promise<Iterable<{ file: string; content: string | Uint8Array }>>;
}

/** What the extras step wrote: its extra outputs' size, and each output file's hash for the build state. */
export interface Extras {
  outputs: OutputTally;
  outputHashes: Map<string, string>;
}

/**
 * Writes every file of the site besides its pages and build files: the extra outputs (feeds,
 * calendars), public/, the redirect pages, 404.html, sitemap.xml and robots.txt.
 */
export async function writeExtras(input: ExtrasInput): Promise<Extras> {
  const { siteDir, baseUrl } = input;
  const outputHashes = new Map<string, string>();
  const outputs = await writeOutputs(input.collectors, input.pages, siteDir, outputHashes, input.previousOutputs);
  await cp(input.publicDir, siteDir, { recursive: true });
  for (const page of renderRedirectPages(input.routeRules, baseUrl, input.csp)) await writeSiteFile(siteDir, page.file, page.content);
  await writeSiteFile(siteDir, '404.html', input.notFoundHtml);
  // The sitemap's files are outputs of their own: an update in place writes only those that changed,
  // and removes one a smaller site no longer has (build/incremental/incremental.ts filesToRemove). Written after
  // public/, whose files they replace, as every build did.
  const sitemap = [...input.sitemap].sort((a, b) => compareText(a.path, b.path));
  await writeOutputs(
    [{ files: () => sitemapFiles(sitemap, baseUrl, input.sitemapUrls) }],
    input.pages,
    siteDir,
    outputHashes,
    input.previousOutputs,
    true,
  );
  await writeSiteFile(siteDir, 'robots.txt', renderRobots(baseUrl));
  return { outputs, outputHashes };
}

// --- internal ---

/** Output files written at once. */
const OUTPUT_WRITES = 16;
/** Output files waiting to be written, at most. */
const OUTPUT_QUEUED = 256;

/**
 * Writes the extra outputs' files, noting each one's hash in `hashes`; a file whose hash is the one in
 * `previous` (the output being updated in place) is left as it is.
 */
async function writeOutputs(
  collectors: readonly OutputSource[],
  pages: BuiltPages,
  siteDir: string,
  hashes: Map<string, string>,
  previous: ReadonlyMap<string, string> | undefined,
  overStaged = false,
): Promise<OutputTally> {
  const tally = { files: 0, bytes: 0 };
  // A site may have an output file per item (a calendar per event): written a few at a time, not one
  // after the other, so the build does not wait on each file system round trip in turn.
  const limit = pLimit(OUTPUT_WRITES);
  const writes: Promise<void>[] = [];
  try {
    for (const collector of collectors) {
      for (const { file, content } of await collector.files(pages)) {
        const hash = contentHash(content);
        hashes.set(file, hash);
        // Unchanged since the previous build, unless the staging folder already has a file of that name
        // (from public/, copied before the files `overStaged` are written), which would otherwise replace it.
        if (previous?.get(file) !== hash || (overStaged && existsSync(join(siteDir, file)))) {
          const write = limit(() => writeSiteFile(siteDir, file, content));
          // Thrown by settleAll below; until then a failure must not count as unhandled.
          write.catch(() => undefined);
          writes.push(write);
          // An output that makes its files as they are taken (a generator) is taken no faster than they
          // are written, so a site with thousands of files never holds all of their contents at once:
          // past OUTPUT_QUEUED waiting, the next is taken once the queue is half as long.
          if (limit.pendingCount >= OUTPUT_QUEUED) await writes[writes.length - OUTPUT_QUEUED / 2]!.catch(() => undefined);
        }
        tally.files++;
        tally.bytes += Buffer.byteLength(content);
      }
    }
  } catch (error) {
    // An output that fails while its files are taken: nothing may still be writing into the staging
    // folder when the build removes it.
    await Promise.allSettled(writes);
    throw error;
  }
  await settleAll(writes);
  return tally;
}
