import { randomBytes } from 'node:crypto';
import { access, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { LATEST_FILE } from '../runtime/shared/paths.ts';
import { BuildErrors, createBuildError } from './errors.ts';

/**
 * All-or-nothing output (DESIGN.md decision 9): the build writes into a temporary folder beside the
 * output and swaps it in only when every page succeeded. A failed build leaves the output untouched.
 */

/** Creates the temporary folder for a build of `outDir`, after checking the swap will be allowed. */
export async function createStagingDir(outDir: string): Promise<string> {
  await checkReplaceable(outDir);
  const staging = join(dirname(outDir), `.${basename(outDir)}.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(staging, { recursive: true });
  } catch (cause) {
    throw createBuildError(BuildErrors.OutputNotWritable, [dirname(outDir), (cause as Error).message], { cause });
  }
  return staging;
}

/** Replaces `outDir` with the finished staging folder; the old output is removed only after the swap. */
export async function commitStagingDir(staging: string, outDir: string): Promise<void> {
  await checkReplaceable(outDir);
  const retired = join(dirname(outDir), `.${basename(outDir)}.retired-${process.pid}-${randomBytes(4).toString('hex')}`);
  const hadOutput = await exists(outDir);
  if (hadOutput) await rename(outDir, retired);
  try {
    await rename(staging, outDir);
  } catch (cause) {
    if (hadOutput) await rename(retired, outDir);
    throw createBuildError(BuildErrors.OutputNotWritable, [outDir, (cause as Error).message], { cause });
  }
  if (hadOutput) await rm(retired, { recursive: true, force: true });
}

/** Removes a staging folder after a failed build. */
export async function discardStagingDir(staging: string): Promise<void> {
  await rm(staging, { recursive: true, force: true });
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

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
