import { join } from 'node:path';
import { LATEST_FILE } from '../../../runtime/shared/paths.ts';
import { fileStamp } from '../../output/read.ts';
import { stateFilesFor } from './build-state.ts';
import { savedBuild, type SavedBuild } from './incremental.ts';
import { folderIdentity, whySampleDoesNotHold } from './state-trust.ts';

/**
 * The saved state of one output folder, read ahead of the build that needs it: for a process that builds
 * the same folder again and again (`site live`), which reads the state its last update saved while it
 * waits for the next change, instead of at the start of that update (a third of a second at 10,000
 * pages, most of it the trust checks' look at every kept file).
 *
 * A state read ahead is used only if nothing was written since it was read: the state's files and the
 * folder's latest.json have the stamps they had then (inode, size, times), the folder is the same
 * folder, and the pages the trust checks sample are still as the build wrote them (state-trust.ts).
 * Anything else, and the build reads the state as any build does (incremental.ts savedBuild).
 */
export interface StateMemory {
  /** Starts reading the folder's state for the next build, as the last build asked for it (nothing before a build asked). */
  readAhead(): void;
  /** The folder's state for a build by `generator`: the one read ahead when it still holds, else read now. Each read-ahead is used once. */
  saved(generator: string): Promise<SavedBuild>;
}

/** `load`: how a build reads the state (for tests). */
export function createStateMemory(
  options: { incremental: boolean; cacheDir: string; outDir: string },
  load: typeof savedBuild = savedBuild,
): StateMemory {
  let ahead: { generator: string; read: Promise<{ stamps: string; saved: SavedBuild } | null> } | null = null;
  let lastGenerator: string | null = null;
  const stamps = async (): Promise<string> => {
    const files = [...stateFilesFor(options.cacheDir, options.outDir), join(options.outDir, LATEST_FILE)];
    const each = await Promise.all(files.map((file) => fileStamp(file).catch(() => 'none')));
    return [...each, await folderIdentity(options.outDir).catch(() => 'none')].join('|');
  };
  return {
    readAhead() {
      const generator = lastGenerator;
      if (generator === null) return;
      // Read after the stamps are taken: a write during the read changes them, and the read is not used.
      const read = (async () => {
        const before = await stamps();
        return { stamps: before, saved: await load(options, generator) };
      })().catch(() => null);
      ahead = { generator, read };
    },
    async saved(generator) {
      lastGenerator = generator;
      const taken = ahead;
      ahead = null;
      const read = taken && taken.generator === generator ? await taken.read : null;
      // The sampled pages are read again too (eight pages): a page changed while the process waited leaves
      // the stamps as they were, and the state read now then says why it does not hold.
      if (
        read?.saved.state &&
        read.stamps === (await stamps()) &&
        (await whySampleDoesNotHold(options.outDir, read.saved.state.sample)) === null
      )
        return read.saved;
      return load(options, generator);
    },
  };
}
