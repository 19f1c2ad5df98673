import type { Logger } from '../terminal/logger.ts';
import type { PublishAction } from './execute.ts';
import type { ObjectStore } from './s3-store.ts';

/** Side effects of publish and rollback, injectable for tests and other front ends. */
export interface PublishDeps {
  logger: Logger;
  /** @default an S3 client for the config's endpoint, bucket and prefix */
  store?: ObjectStore;
  /** Called after each upload or deletion, in the order they complete. */
  onAction?: (action: PublishAction) => void;
  /** Milliseconds between progress lines. @default 2000 */
  progressIntervalMs?: number;
  /** @default Date.now */
  now?: () => number;
}
