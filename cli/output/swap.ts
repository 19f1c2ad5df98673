import { access, readdir, readFile, rename, rm } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { crashPoint } from './lock.ts';
import { removeTrash as removeTrashNow } from './remove-trash.js';
import { writeFileAtomic } from './write.ts';

/**
 * The swap of a finished staging folder into `--out`, recoverable at every step (issue 17.3). Node has
 * no atomic exchange of two folders, so the swap is two renames with a journal beside the output:
 *
 *   1. `{out}.swap` records the staging and retired folders (written atomically): the commit point;
 *   2. `out` → retired;
 *   3. staging → `out`;
 *   4. the journal is removed; the retired tree is moved to the trash (still under the lock), and the
 *      trash is deleted after the build's writes are done (removeTrash).
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

/** Swaps `staging` in as `outDir`; the old tree is left as a retired folder for trashRetired(). */
export async function swapIn(staging: string, outDir: string, retired: string): Promise<void> {
  const journal = journalFor(outDir);
  await writeFileAtomic(journal, JSON.stringify({ staging, retired } satisfies Journal));
  crashPoint('swap:journal');
  if (await exists(outDir)) await rename(outDir, retired);
  crashPoint('swap:retired');
  await rename(staging, outDir);
  crashPoint('swap:swapped');
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

/**
 * Moves the retired trees of finished swaps into the trash (`.{name}.trash-*`), under the output's
 * lock: a rename, cheap. Only then can removeTrash() delete them without the lock, since no swap ever
 * needs a tree in the trash (a retired tree named by a journal is never moved).
 */
export async function trashRetired(outDir: string): Promise<void> {
  const journal = await readJournal(outDir);
  const names = await readdir(dirname(outDir)).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.startsWith(`.${basename(outDir)}.retired-`))) {
    const dir = join(dirname(outDir), name);
    if (dir === journal?.retired) continue;
    await rename(
      dir,
      join(dirname(outDir), `.${basename(outDir)}.trash-${name.slice(name.indexOf('.retired-') + '.retired-'.length)}`),
    ).catch(() => undefined);
  }
}

/**
 * Deletes the trash of `outDir`'s earlier swaps (remove-trash.js). Deleting a large tree is slow and
 * slows the writes after it, so a build does it last, after its own writes and without holding the
 * lock; with `background`, in a process of its own that outlives the command, so nobody waits for it.
 */
export async function removeTrash(outDir: string, { background = false } = {}): Promise<void> {
  if (!background) return removeTrashNow(outDir);
  const names = await readdir(dirname(outDir)).catch(() => [] as string[]);
  if (!names.some((n) => n.startsWith(`.${basename(outDir)}.trash-`))) return;
  const child = spawn(process.execPath, [fileURLToPath(new URL('./remove-trash.js', import.meta.url)), outDir], {
    detached: true,
    stdio: 'ignore',
  });
  child.on('error', () => undefined);
  child.unref();
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
    const beside = (path: unknown): path is string =>
      typeof path === 'string' && dirname(path) === dirname(outDir) && basename(path).startsWith(`.${basename(outDir)}.`);
    return beside(value.staging) && beside(value.retired) ? { staging: value.staging, retired: value.retired } : null;
  } catch {
    return null;
  }
}

/** True when `path` exists (the output modules' one check). */
export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
