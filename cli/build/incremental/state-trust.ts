import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, posix, sep } from 'node:path';
import type { InspectedPages } from '../../checks/collect.ts';
import { isSafePagePath } from '../../content/crawl.ts';
import { mediaFileFor } from '../../content/media.ts';
import { readBuild } from '../../output/output.ts';
import { readBytes } from '../../output/read.ts';
import { fileKey, leavesFolder } from '../../output/write.ts';
import type { DamagedPage, RememberedPage, SavedState } from './state-format.ts';
import { htmlFileFor, payloadFileFor } from '../../../runtime/shared/paths.ts';

/**
 * Whether a saved build state may be trusted (build-state.ts loadBuildState): it decides which files an
 * update in place reads back, keeps and removes. A state whose names lead out of the output folder or
 * name one file twice, whose rows are damaged, or whose output folder is no longer the one it describes
 * (another build, another folder on disk, sampled pages or kept files not as written) is not used.
 */

/**
 * Why the state `saved`, its rows read as `rows`, does not hold for the output folder `outDir`; null when
 * it holds. Checked cheaply: names and rows first, then the folder's build, its identity on disk, the
 * bytes of a few sampled pages and the sizes of the files an update would keep.
 */
export async function whyStateDoesNotHold(
  outDir: string,
  saved: SavedState,
  rows: readonly (RememberedPage | DamagedPage)[],
): Promise<string | null> {
  const outside = firstUnsafeName(saved, rows);
  if (outside !== null)
    return `the build cache's state names ${JSON.stringify(outside)}, which is outside the output folder or not a name a build writes (a damaged or altered cache)`;
  const damaged = rows.find(isDamaged);
  if (damaged)
    return `the build cache's state has a damaged record of the page ${JSON.stringify(String(damaged.damaged))} (a damaged or altered cache)`;
  const pages = rows as readonly RememberedPage[];
  const { latest, meta } = await readBuild(outDir);
  if (latest.id !== saved.buildId || latest.timestamp !== saved.timestamp || meta.prerendered.length !== pages.length)
    return 'the output folder no longer holds the build the cache describes';
  const folder = await folderIdentity(outDir);
  if (folder !== saved.folder)
    return 'the output folder was replaced or restored since the previous build (it is not the folder that build wrote)';
  const changed = await whySampleDoesNotHold(outDir, saved.sample);
  if (changed !== null) return changed;
  const missing = await firstKeptFileMissing(outDir, saved, pages);
  if (missing) return `the output folder's ${missing} is missing or not the size the previous build wrote`;
  return null;
}

/** A few pages spread over the site and the hash of each as it is on disk, which the next build reads again to see that the folder is this one. */
export async function samplePages(outDir: string, pages: InspectedPages): Promise<[string, string][]> {
  const step = Math.max(1, Math.floor(pages.length / SAMPLE_SIZE));
  const sample: [string, string][] = [];
  for (let i = 0; i < pages.length && sample.length < SAMPLE_SIZE; i += step)
    sample.push([pages.path(i), await samplePage(outDir, pages.path(i))]);
  return sample;
}

/**
 * Why the sampled pages of a state (samplePages) are not on disk as that build wrote them, or null: the
 * first that is not. Eight pages read and hashed, for a state checked once and used later (state-memory.ts).
 */
export async function whySampleDoesNotHold(outDir: string, sample: readonly (readonly [string, string])[]): Promise<string | null> {
  for (const [path, hash] of sample) {
    if ((await samplePage(outDir, path)) !== hash) return `the output folder's ${path} is not what the previous build wrote`;
  }
  return null;
}

/** The folder's identity on disk: a folder copied or restored from elsewhere has another. */
export async function folderIdentity(dir: string): Promise<string> {
  const info = await stat(dir, { bigint: true });
  return `${info.dev}:${info.ino}:${info.birthtimeNs}`;
}

// --- internal ---

function isDamaged(row: RememberedPage | DamagedPage): row is DamagedPage {
  return 'damaged' in row;
}

/** The path a row names, damaged or not. */
function pathOf(row: RememberedPage | DamagedPage): unknown {
  return isDamaged(row) ? row.damaged : row.inspected.path;
}

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
function firstUnsafeName(saved: SavedState, rows: readonly (RememberedPage | DamagedPage)[]): string | null {
  // Page paths as the crawl makes them (isSafePagePath): ASCII and canonical, so two pages share a file only
  // when their paths differ by case alone.
  const paths = new Set<string>();
  const pages = new Set<string>();
  for (const path of rows.map(pathOf)) {
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
  for (const file of Object.keys(saved.outputs))
    if (leavesFolder(file) || posix.normalize(file) !== file || file.startsWith('/') || !once(file)) return file;
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

/** A page's index.html or _payload.json, the page's path without its leading `/` in group 1. */
const PAGE_FILE = /^(?:(.+)\/)?(?:index\.html|_payload\.json)$/;

/**
 * The first file an incremental build would keep that is not on disk as the previous build wrote it,
 * or null: every page's index.html and _payload.json (their sizes together must be the page's recorded
 * bytes; a page may have no payload file, but not one that is something else), every extra output and
 * every media file. Only sizes: one stat per file, a few per page.
 */
async function firstKeptFileMissing(outDir: string, saved: SavedState, pages: readonly RememberedPage[]): Promise<string | null> {
  // The names were checked (firstUnsafeName): joined without path.join's normalising, a third of the check's time and garbage.
  const root = outDir.endsWith(sep) ? outDir : outDir + sep;
  /** The file's size; ABSENT when nothing is there; -1 when it is not a plain file (a folder, a FIFO, a link) or cannot be looked at. */
  const size = (file: string): number => {
    try {
      const info = lstatSync(root + file, { throwIfNoEntry: false });
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
  for (const {
    inspected: { path },
    bytes,
  } of pages) {
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

/** The hash of a page's index.html and _payload.json as they are on disk ('' for a missing file). */
async function samplePage(outDir: string, path: string): Promise<string> {
  const read = (file: string): Promise<Buffer | string> => readBytes(join(outDir, file)).catch(() => '');
  const [html, payload] = await Promise.all([read(htmlFileFor(path)), read(payloadFileFor(path))]);
  return createHash('sha1').update(html).update('\0').update(payload).digest('base64url');
}
