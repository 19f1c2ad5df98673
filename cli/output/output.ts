import { randomBytes } from 'node:crypto';
import { mkdir, readdir, realpath, rename, rm, rmdir } from 'node:fs/promises';
import { basename, dirname, join, posix, relative, sep } from 'node:path';
import { ASSETS_DIR, type BuildMeta, type LatestBuild } from '../../runtime/shared/contract.ts';
import { LATEST_FILE, metaFileFor } from '../../runtime/shared/paths.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { lockOutput, type OutputLock } from './lock.ts';
import { readBytes, readText } from './read.ts';
import { exists, journalFor, recoverSwap, swapIn, trashRetired } from './swap.ts';
import { compareText } from '../../runtime/shared/compare.ts';

/**
 * All-or-nothing output (docs/decisions/staging-and-swap.md): the build writes into a temporary folder beside the
 * output and swaps it in only when every page succeeded. A failed build leaves the output untouched.
 * From createStagingDir to commit or discard the build holds the output's lock (lock.ts).
 */

/** A page count below this share of the previous build's fails the build (unless allowed). */
export const SHRINK_LIMIT = 0.8;

const locks = new Map<string, OutputLock>();

/** Locks `outDir` and creates the temporary folder for its build, after checking the swap will be allowed. */
export async function createStagingDir(outDir: string, log: (message: string) => void = () => {}): Promise<string> {
  const lock = await lockOutput(outDir);
  try {
    // A build killed in the middle of its swap left a journal: finish that swap before anything else.
    const recovered = await recoverSwap(outDir);
    if (recovered) log(recovered);
    // Retired trees of builds killed before they could remove them: deleted when this build is done.
    await trashRetired(outDir);
    await checkReplaceable(outDir);
    await removeAbandonedStaging(outDir);
    const staging = join(dirname(outDir), `.${basename(outDir)}.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      await mkdir(staging, { recursive: true });
    } catch (cause) {
      throw createBuildError(BuildErrors.OutputNotWritable, [dirname(outDir), (cause as Error).message], { cause });
    }
    locks.set(staging, lock);
    return staging;
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * Replaces `outDir` with the finished staging folder through a journaled swap (swap.ts), so a
 * crash at any step is finished by the next build or `site preview`. The old tree goes to the trash;
 * the build deletes it with removeTrash() once its own writes are done and the lock is released:
 * removing a large tree is slow, and it no longer matters to anyone.
 */
export async function commitStagingDir(staging: string, outDir: string): Promise<void> {
  await checkReplaceable(outDir);
  const retired = join(dirname(outDir), `.${basename(outDir)}.retired-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await swapIn(staging, outDir, retired);
  } catch (cause) {
    // A failed rename (not a crash): put back whichever tree is missing, so the output is never lost.
    await recoverSwap(outDir).catch(() => undefined);
    throw createBuildError(BuildErrors.OutputNotWritable, [outDir, (cause as Error).message], { cause });
  }
  await trashRetired(outDir);
  await releaseLock(staging);
}

/**
 * Updates `outDir` in place from a staging folder that holds only what an incremental build wrote:
 * each staged file that differs from the output's is moved in (assets and media first, then pages and
 * outputs, then the build meta, and latest.json last, the clients' commit point), and the pages and
 * outputs that no longer exist are removed. Returns what was written and removed, as site paths.
 * A failed build never gets here: its staging folder is discarded and the output stays as it was.
 */
export async function commitStagingChanges(
  staging: string,
  outDir: string,
  remove: readonly string[],
): Promise<{ written: string[]; removed: string[] }> {
  await checkReplaceable(outDir);
  const entries = await readdir(staging, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => relative(staging, join(e.parentPath, e.name)).split(sep).join('/'));
  const rank = (file: string): number =>
    file === LATEST_FILE
      ? 3
      : file.startsWith(`${ASSETS_DIR}/builds/`)
        ? 2
        : file.startsWith(`${ASSETS_DIR}/`) || file.startsWith('media/')
          ? 0
          : 1;
  files.sort((a, b) => rank(a) - rank(b) || compareText(a, b));
  const written: string[] = [];
  const removed: string[] = [];
  for (const file of files) {
    if (file === LATEST_FILE) {
      // Pages that no longer exist go before the new latest.json announces the build without them.
      // Never one this build has just moved in, however the previous build's records spell it.
      const staged = new Set(files);
      for (const gone of remove) if (!staged.has(posix.normalize(gone)) && (await removeFile(outDir, gone))) removed.push(gone);
    }
    const source = join(staging, file);
    const target = join(outDir, file);
    if (file !== LATEST_FILE && (await sameContent(source, target))) continue;
    await mkdir(dirname(target), { recursive: true });
    await rename(source, target);
    written.push(file);
  }
  await rm(staging, { recursive: true, force: true });
  await releaseLock(staging);
  return { written, removed };
}

/**
 * Replaces the output with the staging folder (a full build), or moves the changed files in and removes
 * `remove` (an update in place, commitStagingChanges). Returns what an update in place wrote and removed.
 */
export async function commitOutput(
  staging: string,
  outDir: string,
  remove: readonly string[] | null,
): Promise<{ written: string[]; removed: string[] }> {
  if (remove) return commitStagingChanges(staging, outDir, remove);
  await commitStagingDir(staging, outDir);
  return { written: [], removed: [] };
}

/**
 * Finishes an interrupted swap of `outDir` (swap.ts) for a command that does not build, such
 * as `site preview`; leaves it to the build when a live build holds the folder's lock.
 */
export async function recoverUnlessBuilding(outDir: string): Promise<string | null> {
  // Nothing to finish without a journal: no lock is taken (nor its file written beside the folder).
  if (!(await exists(journalFor(outDir)))) return null;
  let lock: OutputLock;
  try {
    lock = await lockOutput(outDir);
  } catch {
    return null;
  }
  try {
    return await recoverSwap(outDir);
  } finally {
    await lock.release();
  }
}

/** Removes a staging folder after a failed build. */
export async function discardStagingDir(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
  await releaseLock(staging);
}

/** The build `dir` serves now: its `builds/latest.json`. */
export async function readLatest(dir: string): Promise<LatestBuild> {
  return JSON.parse(await readText(join(dir, LATEST_FILE))) as LatestBuild;
}

/** The build a site folder holds: its latest.json and the meta file it points to. Throws when either cannot be read. */
export async function readBuild(dir: string): Promise<{ latest: LatestBuild; meta: BuildMeta }> {
  const latest = await readLatest(dir);
  const meta = JSON.parse(await readText(join(dir, metaFileFor(latest.id)))) as BuildMeta;
  return { latest, meta };
}

/** The number of pages the build in `outDir` prerendered, or null when there is none (or it cannot be read). */
export async function previousPageCount(outDir: string): Promise<number | null> {
  try {
    const { meta } = await readBuild(outDir);
    return Array.isArray(meta.prerendered) ? meta.prerendered.length : null;
  } catch {
    return null;
  }
}

/**
 * No silent loss: a build with more than 20% fewer pages than the one it replaces fails, because a
 * list that suddenly comes back empty looks exactly like that. `allowShrink` says the drop is intended.
 */
export async function checkPageCount(outDir: string, pages: number, allowShrink: boolean, known?: number): Promise<void> {
  if (allowShrink) return;
  // An incremental build has already read the previous build: `known` is its page count.
  const previous = known ?? (await previousPageCount(outDir));
  if (previous !== null && pages < previous * SHRINK_LIMIT) throw createBuildError(BuildErrors.PageCountDropped, [outDir, previous, pages]);
}

/** True when `dir` holds a build written by this tool (it has builds/latest.json). */
export async function isSiteOutput(dir: string): Promise<boolean> {
  return exists(join(dir, LATEST_FILE));
}

// --- internal ---

/** The build may replace a folder only if it is missing, empty, or a previous build: never anything else. */
async function checkReplaceable(outDir: string): Promise<void> {
  if (!(await exists(outDir))) return;
  let entries: string[];
  try {
    entries = await readdir(outDir);
  } catch (cause) {
    throw createBuildError(BuildErrors.OutputNotWritable, [outDir, (cause as Error).message], { cause });
  }
  if (entries.length > 0 && !(await isSiteOutput(outDir))) throw createBuildError(BuildErrors.OutputNotASite, [outDir]);
}

async function releaseLock(staging: string): Promise<void> {
  const lock = locks.get(staging);
  locks.delete(staging);
  await lock?.release();
}

/** Staging folders of builds that were killed; only this build can be writing one while it holds the lock. */
async function removeAbandonedStaging(outDir: string): Promise<void> {
  const prefix = `.${basename(outDir)}.staging-`;
  const siblings = await readdir(dirname(outDir)).catch(() => [] as string[]);
  await Promise.all(
    siblings.filter((name) => name.startsWith(prefix)).map((name) => rm(join(dirname(outDir), name), { recursive: true, force: true })),
  );
}

/** Removes a file of the output and the folders it leaves empty; false when it was not there. */
async function removeFile(outDir: string, file: string): Promise<boolean> {
  const target = join(outDir, file);
  if (!target.startsWith(outDir + sep) || !(await exists(target))) return false;
  // The folder it is in must be inside the output folder on disk too: through a link to a folder
  // elsewhere, a name inside the output would remove a file outside it.
  const [root, folder] = await Promise.all([realpath(outDir), realpath(dirname(target)).catch(() => null)]);
  if (folder === null || (folder !== root && !folder.startsWith(root + sep))) return false;
  await rm(target, { force: true });
  for (let dir = dirname(target); dir.startsWith(outDir + sep); dir = dirname(dir)) {
    if ((await readdir(dir).catch(() => ['?'])).length > 0) break;
    await rmdir(dir).catch(() => undefined);
  }
  return true;
}

async function sameContent(a: string, b: string): Promise<boolean> {
  const [left, right] = await Promise.all([readBytes(a), readBytes(b).catch(() => null)]);
  return right !== null && left.equals(right);
}
