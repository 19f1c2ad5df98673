import pLimit from 'p-limit';
import type { Logger } from '../terminal/logger.ts';
import type { BuildProgress } from '../terminal/progress.ts';
import { contentOf, type LocalFile } from './local.ts';
import { bytesOf, type PlannedUpload, type UploadReason } from './plan.ts';
import { STAGES, type Stage } from './policy.ts';
import { formatBytes, plural } from '../terminal/format.ts';
import type { ObjectStore } from './s3-store.ts';
import { describeSdkError } from './storage-errors.ts';

/** One change made to the bucket, reported in the order it completed. */
/** One change made to the bucket, reported in the order it completed; `from` names the staged copy an upload was copied from inside the bucket. */
export type PublishAction =
  | { kind: 'upload'; key: string; stage: Stage; bytes: number; reason: UploadReason; from?: string }
  | { kind: 'delete'; key: string };

/** An object already in the bucket that holds a file's bytes (a shard's staged copy), with the ETag the listing gave it. */
export interface CopySource {
  key: string;
  etag: string;
}

/** What the upload and delete loops work with. */
export interface ExecuteDeps {
  store: ObjectStore;
  logger: Logger;
  concurrency: number;
  /** Where the uploads are counted: a stage of the progress model per upload stage, in files and bytes, which a display shows. */
  progress: BuildProgress;
  onAction: (action: PublishAction) => void;
  /** Files to copy inside the bucket rather than upload, by key. @default none */
  sources?: ReadonlyMap<string, CopySource>;
}

/**
 * Uploads stage by stage (policy.ts STAGES): a stage starts only after every upload of the one
 * before succeeded, and the first failure stops the run before the next stage, so latest.json, the
 * last stage, is written only when everything it points to is in the bucket. Each stage is counted in
 * `progress` (a display shows it as it goes) and says in a line when it starts and when it ends, so a
 * CI log shows that a long publish is moving without a line per file.
 */
export async function uploadInStages(uploads: readonly PlannedUpload[], deps: ExecuteDeps): Promise<void> {
  const { store, logger, progress, onAction } = deps;
  const totalBytes = bytesOf(uploads);
  for (const stage of STAGES) {
    const batch = uploads.filter((u) => u.file.stage === stage);
    if (batch.length === 0) continue;
    const counter = progress.stage(stage, 'files');
    counter.setTotal(batch.length, bytesOf(batch));
    logger.info('publish', `${stage}: ${plural(batch.length, 'file')} to upload, ${formatBytes(bytesOf(batch))}`);
    await runAll(batch, deps.concurrency, async ({ file, reason }) => {
      const source = deps.sources?.get(file.key);
      const from = source && (await copied(store, source, file)) ? source.key : undefined;
      if (!from) await store.put(file.key, await contentOf(file), file);
      counter.add(1, file.size);
      logger.debug?.(
        'publish',
        `${from ? `copied ${from} to` : 'put'} ${file.key} (${reason}, ${formatBytes(file.size)}, ${file.contentType}, ${file.cacheControl})`,
      );
      onAction({ kind: 'upload', key: file.key, stage, bytes: file.size, reason, ...(from ? { from } : {}) });
    });
    counter.end();
    const run = uploadsDone(progress);
    logger.info('publish', `${run.done}/${uploads.length} uploaded, ${formatBytes(run.bytes)} of ${formatBytes(totalBytes)} (${stage})`);
  }
}

/** The uploads `progress` counted so far over every upload stage, and the stage running now (null: none). */
export function uploadsDone(progress: BuildProgress): { done: number; bytes: number; running: Stage | null } {
  const stages = progress.stages().filter((s) => (STAGES as readonly string[]).includes(s.name));
  return {
    done: stages.reduce((n, s) => n + s.count, 0),
    bytes: stages.reduce((n, s) => n + s.bytes, 0),
    running: (stages.find((s) => s.endedAt === null)?.name as Stage | undefined) ?? null,
  };
}

/** How the deletions of a run went. */
export interface DeleteOutcome {
  deleted: number;
  failed: { key: string; cause: string }[];
}

/**
 * Deletes unreferenced keys after latest.json was written. A failed deletion does not fail the
 * publish (the new build is live and complete); the key stays unreferenced and the next run retries.
 */
export async function deleteKeys(keys: readonly string[], deps: Omit<ExecuteDeps, 'progress'>): Promise<DeleteOutcome> {
  const limit = pLimit(deps.concurrency);
  const outcome: DeleteOutcome = { deleted: 0, failed: [] };
  await Promise.all(
    keys.map((key) =>
      limit(async () => {
        try {
          await deps.store.delete(key);
          outcome.deleted++;
          deps.logger.debug?.('publish', `deleted ${key}`);
          deps.onAction({ kind: 'delete', key });
        } catch (error) {
          outcome.failed.push({ key, cause: error instanceof Error ? error.message : describeSdkError(error) });
        }
      }),
    ),
  );
  if (outcome.failed.length > 0) {
    const first = outcome.failed[0]!;
    deps.logger.warn(
      'publish',
      `could not delete ${plural(outcome.failed.length, 'unreferenced file')} (first: ${first.key}: ${first.cause}); the next publish tries again`,
    );
  }
  return outcome;
}

// --- internal ---

/**
 * Copies a staged copy to the file's key; false when the copy failed or the store does not confirm the
 * file's bytes (then the caller uploads the file itself, so the key always ends up with its bytes).
 */
async function copied(store: ObjectStore, source: CopySource, file: LocalFile): Promise<boolean> {
  try {
    const etag = await store.copy(source.key, file.key, source.etag, file);
    // A copy is trusted only on the MD5 ETag of its bytes: an empty or other ETag proves nothing, so the file is uploaded instead.
    return /^[0-9a-f]{32}$/i.test(etag) && etag.toLowerCase() === file.md5;
  } catch {
    return false;
  }
}

/** Runs `task` over `items` with bounded concurrency; after the first failure, queued items are skipped and it rethrows. */
async function runAll<T>(items: readonly T[], concurrency: number, task: (item: T) => Promise<void>): Promise<void> {
  const limit = pLimit(concurrency);
  let failure: { error: unknown } | null = null;
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        if (failure) return;
        try {
          await task(item);
        } catch (error) {
          failure ??= { error };
        }
      }),
    ),
  );
  if (failure) throw (failure as { error: unknown }).error;
}
