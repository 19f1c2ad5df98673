import { access, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from './write.ts';

/**
 * The swap of a finished staging folder into `--out`, recoverable at every step (issue 17.3). Node has
 * no atomic exchange of two folders, so the swap is two renames with a journal beside the output:
 *
 *   1. `{out}.swap` records the staging and retired folders (written atomically): the commit point;
 *   2. `out` → retired;
 *   3. staging → `out`;
 *   4. the journal is removed; the retired tree is removed after the build's writes are done.
 *
 * A crash at any point leaves a state recoverSwap() finishes: with a journal, the swap is rolled
 * forward (the staging folder is complete, or the journal would not exist), or rolled back to the
 * retired tree if the staging folder is gone. Every build and `site preview` run it first, so `--out`
 * holds the old or the new tree whenever either looks at it.
 */

interface Journal {
  staging: string;
  retired: string;
}

/** Swaps `staging` in as `outDir`; the old tree is left as a retired folder for removeRetired(). */
export async function swapIn(staging: string, outDir: string, retired: string): Promise<void> {
  const journal = journalFor(outDir);
  await writeFileAtomic(journal, JSON.stringify({ staging, retired } satisfies Journal));
  crashPoint('journal');
  if (await exists(outDir)) await rename(outDir, retired);
  crashPoint('retired');
  await rename(staging, outDir);
  crashPoint('swapped');
  await rm(journal, { force: true });
}

/**
 * Finishes a swap a crash interrupted. Returns what it did, for the log: null when there was nothing
 * to do.
 */
export async function recoverSwap(outDir: string): Promise<string | null> {
  const journal = await readJournal(outDir);
  if (!journal) return null;
  const [hasOut, hasStaging, hasRetired] = await Promise.all([exists(outDir), exists(journal.staging), exists(journal.retired)]);
  let done: string;
  if (hasStaging) {
    // The staging tree is complete (the journal is written only then): finish the swap.
    if (hasOut) await rename(outDir, journal.retired);
    await rename(journal.staging, outDir);
    done = `finished the swap of an interrupted build into ${outDir}`;
  } else if (!hasOut && hasRetired) {
    await rename(journal.retired, outDir);
    done = `restored the previous build into ${outDir}`;
  } else {
    done = `cleared the record of a finished swap into ${outDir}`;
  }
  await rm(journalFor(outDir), { force: true });
  return done;
}

/** Removes the retired trees of earlier builds of `outDir` (never while a swap's journal names one). */
export async function removeRetired(outDir: string): Promise<number> {
  const journal = await readJournal(outDir);
  const prefix = `.${basename(outDir)}.retired-`;
  const names = (await readdir(dirname(outDir)).catch(() => [] as string[])).filter((name) => name.startsWith(prefix));
  const gone = names.map((name) => join(dirname(outDir), name)).filter((dir) => dir !== journal?.retired);
  await Promise.all(gone.map((dir) => rm(dir, { recursive: true, force: true })));
  return gone.length;
}

/** The journal of `outDir`'s swap. */
export function journalFor(outDir: string): string {
  return `${outDir}.swap`;
}

// --- internal ---

async function readJournal(outDir: string): Promise<Journal | null> {
  const text = await readFile(journalFor(outDir), 'utf8').catch(() => null);
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<Journal>;
    // Only folders beside the output, as this module names them, are ever renamed.
    const beside = (path: unknown): path is string => typeof path === 'string' && dirname(path) === dirname(outDir) && basename(path).startsWith(`.${basename(outDir)}.`);
    return beside(value.staging) && beside(value.retired) ? { staging: value.staging, retired: value.retired } : null;
  } catch {
    return null;
  }
}

/**
 * Test hook: `SITE_CRASH_AT=swap:journal|swap:retired|swap:swapped` kills the process at that step, as
 * a power cut or `kill -9` would, so tests can show every step is recoverable.
 */
function crashPoint(step: string): void {
  if (process.env.SITE_CRASH_AT === `swap:${step}`) process.kill(process.pid, 'SIGKILL');
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
