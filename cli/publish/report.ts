import type { Logger } from '../terminal/logger.ts';
import type { PublishAction } from './execute.ts';
import { bytesOf, type PlannedUpload } from './plan.ts';
import { formatBytes, plural } from '../terminal/format.ts';

/** What one run of `site publish` did (or, in a dry run, would do). */
export interface PublishResult {
  /** The build latest.json names after the run. */
  buildId: string;
  /** The build latest.json named before the run; null on the first publish. */
  previousBuildId: string | null;
  dryRun: boolean;
  uploaded: number;
  unchanged: number;
  deleted: number;
  /** Unreferenced files left in the bucket for a later run (--max-deletes, or a failed deletion). */
  deferredDeletes: number;
  /** Bytes uploaded. */
  bytes: number;
  /** Builds whose files the bucket keeps, the live one first. */
  keptBuilds: string[];
  /** Every change in the order it completed; in a dry run, in the order it would be made. */
  actions: PublishAction[];
  durationMs: number;
}

/** Logs every action of a dry run, then what it would amount to. Nothing is written. */
export function reportDryRun(
  logger: Logger,
  uploads: readonly PlannedUpload[],
  deletes: readonly string[],
  unchanged: number,
): PublishAction[] {
  const actions: PublishAction[] = [];
  for (const { file, reason } of uploads) {
    logger.info('publish', `would upload ${file.key} (${reason}, ${formatBytes(file.size)}, ${file.contentType}, ${file.cacheControl})`);
    actions.push({ kind: 'upload', key: file.key, stage: file.stage, bytes: file.size, reason });
  }
  for (const key of deletes) {
    logger.info('publish', `would delete ${key}`);
    actions.push({ kind: 'delete', key });
  }
  logger.info(
    'publish',
    `dry run: ${uploads.length} to upload, ${unchanged} unchanged, ${deletes.length} to delete, ${formatBytes(bytesOf(uploads))}; nothing was changed`,
  );
  return actions;
}

/** The closing line: `published build X to s3://… in 2.1 s: 12 uploaded, 440 unchanged, 3 deleted, 1.2 MiB`. */
export function summaryLine(verb: 'published' | 'rolled back to', result: PublishResult, location: string): string {
  const counts = `${result.uploaded} uploaded, ${result.unchanged} unchanged, ${result.deleted} deleted, ${formatBytes(result.bytes)}`;
  return `${verb} build ${result.buildId} at ${location} in ${(result.durationMs / 1000).toFixed(1)} s: ${counts}`;
}

/** Says which builds stay and which went, so a CI log answers "can I still roll back to X?". */
export function logRetention(
  logger: Logger,
  kept: readonly string[],
  dropped: readonly string[],
  deferred: number,
  maxDeletes: number,
): void {
  logger.info(
    'publish',
    `keeping the files of ${kept.length === 1 ? 'build' : 'builds'} ${kept.join(', ')}${dropped.length > 0 ? `; dropping ${dropped.join(', ')}` : ''}`,
  );
  if (deferred > 0)
    logger.warn(
      'publish',
      `${plural(deferred, 'unreferenced file was', 'unreferenced files were')} left for the next run (--max-deletes ${maxDeletes})`,
    );
}
