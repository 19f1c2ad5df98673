import { commitOutput, createStagingDir, discardStagingDir } from '../output/output.ts';
import { removeTrash } from '../output/swap.ts';
import type { Logger } from '../terminal/logger.ts';

/** The staging folder a build writes into, and the two ways it can leave it. */
export interface StagingFolder {
  readonly dir: string;
  /**
   * Replaces the output with the staging folder (`remove` null: a full build, a merge), or moves in only
   * what changed and removes `remove` (an update in place): output/output.ts commitOutput.
   */
  commit(remove: readonly string[] | null): Promise<{ written: string[]; removed: string[] }>;
  /** Removes the staging folder unused: the output stands as it is. */
  discard(): Promise<void>;
}

/** What a build does in the staging folder, and what it closes after: `write` runs, the rest on its way out. */
export interface StagedWork<T> {
  /** Writes the build into the staging folder and commits it (or discards it, when the output stands). */
  write(staging: StagingFolder): Promise<T>;
  /** After a failure, before the staging folder is removed: settles whatever may still be writing into it. */
  settle?(): Promise<void>;
  /** After a failure, once the staging folder is gone: records the failure (the build report). */
  failed(error: unknown): Promise<void>;
  /** After success or failure, before the trash goes: closes what `write` opened. */
  close?(): Promise<void>;
}

/**
 * The outline of every build that writes an output folder (`site build` in each of its plans, and
 * `site build --merge`): a staging folder is created under the folder's lock; `work.write` fills it and
 * commits it; on any failure whatever still writes into it settles, it is removed and the failure is
 * recorded, so the previous output stays as it was; either way what the work opened closes, and the
 * trees earlier swaps replaced are deleted last (deleting a large tree slows the writes after it).
 */
export async function inStagingFolder<T>(
  output: { outDir: string; backgroundCleanup: boolean },
  logger: Logger,
  work: StagedWork<T>,
): Promise<T> {
  const dir = await createStagingDir(output.outDir, (message) => logger.warn('output', message));
  const staging: StagingFolder = {
    dir,
    commit: (remove) => commitOutput(dir, output.outDir, remove),
    discard: () => discardStagingDir(dir),
  };
  try {
    return await work.write(staging);
  } catch (error) {
    await work.settle?.();
    await discardStagingDir(dir);
    await work.failed(error);
    throw error;
  } finally {
    await work.close?.();
    await removeTrash(output.outDir, { background: output.backgroundCleanup });
  }
}
