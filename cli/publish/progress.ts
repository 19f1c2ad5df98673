import type { Logger } from '../terminal/logger.ts';
import { formatBytes } from '../terminal/format.ts';
import type { Stage } from './policy.ts';

/**
 * Progress of a publish: one `[publish] 120/431 uploaded, …` line at most every `intervalMs`, and at
 * the end of each stage, so a CI log shows that a long publish is moving without a line per file.
 */
export interface Progress {
  /** A stage begins with `files` uploads of `bytes` bytes. */
  startStage(stage: Stage, files: number, bytes: number): void;
  /** One upload finished. */
  step(bytes: number): void;
  /** The current stage finished. */
  endStage(): void;
  /** Uploads done so far. */
  readonly done: number;
  /** The stage running now, or null between stages. */
  readonly stage: Stage | null;
}

/** Size of the run and the pace of its progress lines. */
export interface ProgressOptions {
  /** Uploads of the whole run. */
  total: number;
  totalBytes: number;
  /** @default 2000 */
  intervalMs?: number;
  /** @default Date.now */
  now?: () => number;
}

/** Creates the progress reporter of one run. */
export function createProgress(logger: Logger, { total, totalBytes, intervalMs = 2000, now = Date.now }: ProgressOptions): Progress {
  let done = 0;
  let bytes = 0;
  let stage: Stage | null = null;
  let last = now();
  const line = (): void => {
    last = now();
    logger.info('publish', `${done}/${total} uploaded, ${formatBytes(bytes)} of ${formatBytes(totalBytes)}${stage ? ` (${stage})` : ''}`);
  };
  return {
    get done() {
      return done;
    },
    get stage() {
      return stage;
    },
    startStage(next, files, stageBytes) {
      stage = next;
      logger.info('publish', `${next}: ${files} ${files === 1 ? 'file' : 'files'} to upload, ${formatBytes(stageBytes)}`);
    },
    step(size) {
      done++;
      bytes += size;
      if (now() - last >= intervalMs) line();
    },
    endStage() {
      line();
      stage = null;
    },
  };
}

