import { join } from 'node:path';
import { LATEST_FILE } from '../../../runtime/shared/paths.ts';
import { fileStamp } from '../../output/read.ts';
import { stateFilesFor, type KeptState } from './build-state.ts';
import { savedBuild, type SavedBuild } from './incremental.ts';
import { folderIdentity, whySampleDoesNotHold } from './state-trust.ts';

/**
 * The saved state of one output folder, for a process that builds the same folder again and again
 * (`site live`), so that the next update does not start by reading it (a third of a second at 10,000
 * pages: 5.8 MB read, its signature checked, parsed and decoded, and every kept file looked at).
 *
 * - **Kept:** the state the last build saved, as the next build would read it back (build-state.ts
 *   saveBuildState with `keep`), held in memory. The trust checks a state read from the cache passes
 *   (state-trust.ts whyStateDoesNotHold: its names, the folder's build, identity and sampled pages, the
 *   size of every file it keeps) start as soon as it is kept, while the process waits for the next
 *   change; the next build waits for them to end, and reads the state from the cache if they fail.
 * - **Read ahead:** when the last build kept none (it found nothing to change, or ran in a process of
 *   its own), the state is read from the cache while the process waits, with every check.
 *
 * Either is used only if nothing was written since: the state's files and the folder's latest.json
 * have the stamps they had once it was saved or read (inode, size, times), the folder is the same
 * folder, and the pages the trust checks sample are still as the build wrote them, read again when the
 * next build starts. Anything else, and the build reads the state as any build does (incremental.ts
 * savedBuild). A build with `--full` (incremental off) gets no state, kept or read.
 */
export interface StateMemory {
  /** Keeps the state a build by `generator` has just saved, for the next build, and starts checking it. */
  keep(generator: string, kept: KeptState): Promise<void>;
  /** After a build: starts reading the folder's state for the next build, unless that build kept one (nothing before a build asked for a state). */
  readAhead(): void;
  /** The folder's state for a build by `generator`: the one kept or read ahead when it still holds, else read now. Each is used once. */
  saved(generator: string): Promise<SavedBuild>;
}

/** `load`: how a build reads the state (for tests). */
export function createStateMemory(
  options: { incremental: boolean; cacheDir: string; outDir: string },
  { load = savedBuild }: { load?: typeof savedBuild } = {},
): StateMemory {
  /** A state for the next build: its generator, the stamps once saved or read, and whether it holds (null: it does). */
  type Held = { generator: string; stamps: string; saved: SavedBuild; whyNot: Promise<string | null> };
  let held: Promise<Held | null> | null = null;
  /** Whether the build that ran last kept its state (keep since the last readAhead). */
  let keptByLast = false;
  let lastGenerator: string | null = null;
  const stamps = async (): Promise<string> => {
    const files = [...stateFilesFor(options.cacheDir, options.outDir), join(options.outDir, LATEST_FILE)];
    const each = await Promise.all(files.map((file) => fileStamp(file).catch(() => 'none')));
    return [...each, await folderIdentity(options.outDir).catch(() => 'none')].join('|');
  };
  return {
    async keep(generator, kept) {
      lastGenerator = generator;
      keptByLast = true;
      const taken = await stamps();
      // Checked from now on, as loadBuildState checks a state it reads; a check that throws is a state not used.
      const whyNot = kept.whyNot().catch((error: unknown) => `the kept state could not be checked (${(error as Error).message})`);
      held = Promise.resolve({ generator, stamps: taken, saved: { state: kept.state }, whyNot });
    },
    readAhead() {
      const generator = lastGenerator;
      if (keptByLast || generator === null) {
        keptByLast = false;
        return;
      }
      // Read after the stamps are taken: a write during the read changes them, and the read is not used.
      held = (async () => {
        const before = await stamps();
        return { generator, stamps: before, saved: await load(options, generator), whyNot: Promise.resolve(null) };
      })().catch(() => null);
    },
    async saved(generator) {
      lastGenerator = generator;
      const taken = held && (await held);
      held = null;
      if (
        options.incremental &&
        taken?.saved.state &&
        taken.generator === generator &&
        (await taken.whyNot) === null &&
        taken.stamps === (await stamps()) &&
        // The sampled pages are read again too (eight pages): a page changed while the process waited
        // leaves the stamps as they were.
        (await whySampleDoesNotHold(options.outDir, taken.saved.state.sample)) === null
      )
        return taken.saved;
      return load(options, generator);
    },
  };
}
