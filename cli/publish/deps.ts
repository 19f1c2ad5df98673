import type { Logger } from '../terminal/logger.ts';
import type { BuildProgress } from '../terminal/progress.ts';
import type { PublishAction } from './execute.ts';
import type { FileHashes, FolderChanges } from './local.ts';
import type { CheckedRecords } from './remote-builds.ts';
import type { ObjectStore } from './s3-store.ts';

/** Side effects of publish and rollback, injectable for tests and other front ends. */
export interface PublishDeps {
  logger: Logger;
  /** @default an S3 client for the config's endpoint, bucket and prefix */
  store?: ObjectStore;
  /** Called after each upload or deletion, in the order they complete. */
  onAction?: (action: PublishAction) => void;
  /** Where the uploads are counted, for a display to show (terminal/progress-display.ts). @default a model no display reads */
  progress?: BuildProgress;
  /** @default Date.now */
  now?: () => number;
  /** The hashes of the folder's files from an earlier publish of it, kept and brought up to date (`site live`). @default none: every file is read */
  hashes?: FileHashes;
  /** The records read and checked by an earlier publish to the same bucket, kept and brought up to date (`site live`). @default none: every record is checked */
  checkedRecords?: CheckedRecords;
  /** With `hashes`: what the build that just updated the folder wrote and removed; only those are read (`site live`). @default the folder is walked */
  changed?: FolderChanges;
  /**
   * Called once latest.json names the new build (the build is live for visitors), before the run deletes
   * what the builds it keeps no longer list. Not called on a dry run, nor when the uploads fail.
   */
  onLive?: () => void;
}
