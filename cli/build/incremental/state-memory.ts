import { join } from 'node:path';
import { LATEST_FILE } from '../../../runtime/shared/paths.ts';
import { fileStamp } from '../../output/read.ts';
import { stateFilesFor, type BuildState } from './build-state.ts';
import { savedBuild, type SavedBuild } from './incremental.ts';
import { folderIdentity, whyKeptFilesDoNotHold, whySampleDoesNotHold } from './state-trust.ts';

/**
 * The saved state of one output folder, for a process that builds the same folder again and again
 * (`site live`), so that the next update does not start by reading it (a third of a second at 10,000
 * pages, most of it the trust checks' look at every kept file).
 *
 * - **Kept:** the state the last build saved, as the next build would read it back (build-state.ts
 *   saveBuildState with `keep`), held in memory. Its kept files are looked at (their sizes, as
 *   loadBuildState does) once the process has waited QUIET_MS for the next update: edits in quick
 *   succession do not each pay for 25,800 stats, and a file found missing drops the kept state.
 * - **Read ahead:** when nothing is kept (the build saved no state, or a build used it without saving
 *   another), the state is read from the build cache while the process waits, with every trust check.
 *
 * Either is used only if nothing was written since: the state's files and the folder's latest.json
 * have the stamps they had once it was saved or read (inode, size, times), the folder is the same
 * folder, and the pages the trust checks sample are still as the build wrote them (state-trust.ts).
 * Anything else, and the build reads the state as any build does (incremental.ts savedBuild).
 */
export interface StateMemory {
  /** Keeps `state`, which a build by `generator` has just saved, for the next build. */
  keep(generator: string, state: BuildState): Promise<void>;
  /** Starts reading the folder's state for the next build, as the last build asked for it (nothing before a build asked, nothing while a state is kept). */
  readAhead(): void;
  /** The folder's state for a build by `generator`: the one kept or read ahead when it still holds, else read now. Each is used once. */
  saved(generator: string): Promise<SavedBuild>;
}

/** How long the process waits for another update before it looks at a kept state's files. */
export const QUIET_MS = 1000;

/** `load`: how a build reads the state; `quietMs`: QUIET_MS (both for tests). */
export function createStateMemory(
  options: { incremental: boolean; cacheDir: string; outDir: string },
  { load = savedBuild, quietMs = QUIET_MS }: { load?: typeof savedBuild; quietMs?: number } = {},
): StateMemory {
  type Held = { generator: string; stamps: string; saved: SavedBuild };
  let ahead: { generator: string; read: Promise<Held | null> } | null = null;
  let kept: (Held & { stop(): void; dropped: boolean }) | null = null;
  let lastGenerator: string | null = null;
  const stamps = async (): Promise<string> => {
    const files = [...stateFilesFor(options.cacheDir, options.outDir), join(options.outDir, LATEST_FILE)];
    const each = await Promise.all(files.map((file) => fileStamp(file).catch(() => 'none')));
    return [...each, await folderIdentity(options.outDir).catch(() => 'none')].join('|');
  };
  const stillHolds = async (held: Held | null, generator: string): Promise<boolean> =>
    !!held?.saved.state &&
    held.generator === generator &&
    held.stamps === (await stamps()) &&
    // The sampled pages are read again too (eight pages): a page changed while the process waited leaves
    // the stamps as they were.
    (await whySampleDoesNotHold(options.outDir, held.saved.state.sample)) === null;
  return {
    async keep(generator, state) {
      kept?.stop();
      ahead = null;
      lastGenerator = generator;
      let stopped = false;
      const held: NonNullable<typeof kept> = {
        generator,
        stamps: await stamps(),
        saved: { state },
        dropped: false,
        stop: () => {
          stopped = true;
          clearTimeout(look);
        },
      };
      const look = setTimeout(() => {
        void whyKeptFilesDoNotHold(options.outDir, state, () => stopped)
          .catch((error: unknown) => (error as Error).message)
          .then((why) => {
            if (why !== null && !stopped) held.dropped = true;
          });
      }, quietMs);
      look.unref();
      kept = held;
    },
    readAhead() {
      const generator = lastGenerator;
      if (generator === null || kept !== null) return;
      // Read after the stamps are taken: a write during the read changes them, and the read is not used.
      const read = (async () => {
        const before = await stamps();
        return { generator, stamps: before, saved: await load(options, generator) };
      })().catch(() => null);
      ahead = { generator, read };
    },
    async saved(generator) {
      lastGenerator = generator;
      const taken = kept;
      kept = null;
      // Not looked at further: the build goes on from it now, or reads the state.
      taken?.stop();
      if (taken && !taken.dropped && (await stillHolds(taken, generator))) return taken.saved;
      const read = ahead;
      ahead = null;
      const readAhead = read && read.generator === generator ? await read.read : null;
      if (await stillHolds(readAhead, generator)) return readAhead!.saved;
      return load(options, generator);
    },
  };
}
