import pLimit from 'p-limit';
import { LATEST_FILE, metaFileFor } from '../../runtime/shared/paths.ts';
import { BuildErrors, createBuildError, isBuildError } from '../errors/errors.ts';
import { createBuildProgress } from '../terminal/progress.ts';
import type { PublishConfig } from '../config/publish.ts';
import { uploadInStages, uploadsDone, type PublishAction } from './execute.ts';
import type { PublishDeps } from './deps.ts';
import { memoryFile, readLocalBuild, type LocalBuild } from './local.ts';
import type { FileManifest } from './manifest.ts';
import { bytesOf, compareWithRemote, type PlannedUpload } from './plan.ts';
import { stageIndex } from './policy.ts';
import { latestJson, readBucketBuilds, recordReadingOf, signAdopted } from './remote-builds.ts';
import { reportDryRun, summaryLine, type PublishResult } from './report.ts';
import { newestFirst } from './retention.ts';
import { createS3Store, type ObjectStore, type RemoteObject } from './s3-store.ts';

/**
 * Points latest.json back to an earlier build that is still in the bucket. Its hashed assets and
 * records are there (retention kept them), but pages and payloads live at keys every build
 * overwrites, so the bucket holds only the newest build's copy. Rollback checks every key against
 * the target build's file manifest and restores the ones that differ from `config.outDir` when that
 * folder holds the target build; otherwise it refuses and changes nothing, because a latest.json
 * that names one build while the pages are another's would roll back nothing a visitor sees.
 * It deletes nothing: the newer builds stay, so rolling forward again is one command. Only a build
 * whose file manifest is signed with SITE_PUBLISH_KEY is offered (remote-builds.ts).
 */
export async function rollback(config: PublishConfig, deps: PublishDeps): Promise<PublishResult> {
  const { logger, now = Date.now, onAction = () => {} } = deps;
  const id = config.rollback;
  if (id === null) throw createBuildError(BuildErrors.InvalidOption, ['--rollback', '', 'a build id']);
  const started = now();
  const store = deps.store ?? createS3Store(config);
  try {
    logger.info('publish', `rollback to build ${id} at ${store.location}${config.dryRun ? ' (dry run)' : ''}`);
    const remote = await store.list();
    const bucket = await readBucketBuilds({
      store,
      remote,
      logger,
      ...recordReadingOf(config),
    });
    const versions = newestFirst(bucket.versions.filter((m) => m.id === id));
    // Retention deletes a dropped build's meta first: a build without one is no longer offered.
    if (versions.length === 0 || !remote.has(metaFileFor(id)))
      throw createBuildError(BuildErrors.RollbackBuildMissing, [id, describeBuilds(bucket.manifests)]);

    // A build id published more than once has a record per version: the one `--out` holds, else the newest.
    const local = await localBuildOf(config.outDir, id);
    const manifest = versions.find((m) => local !== null && matches(m, local)) ?? versions[0]!;
    const stale = await staleKeys(manifest, remote, store, config.concurrency);
    const uploads = stale.length > 0 ? restoreFrom(local, config.outDir, id, stale, remote) : [];
    // From the signed manifest, not the meta in the bucket (which its hash checks above, like every other key).
    const latest = memoryFile(LATEST_FILE, Buffer.from(latestJson({ id, timestamp: manifest.timestamp })));
    const latestVerdict = compareWithRemote(latest, remote.get(LATEST_FILE));
    if (latestVerdict !== 'unchanged') uploads.push({ file: latest, reason: latestVerdict === 'new' ? 'new' : 'changed' });
    uploads.sort((a, b) => stageIndex(a.file.stage) - stageIndex(b.file.stage));

    const fileCount = Object.keys(manifest.files).length + 1;
    const base = {
      buildId: id,
      previousBuildId: bucket.latest?.id ?? null,
      dryRun: config.dryRun,
      unchanged: fileCount - uploads.length,
      deleted: 0,
      deferredDeletes: 0,
      keptBuilds: newestFirst(bucket.manifests).map((m) => m.id),
    };
    logger.info(
      'publish',
      `latest.json names ${base.previousBuildId ? `build ${base.previousBuildId}` : 'no build'}; ${stale.length} of build ${id}'s files differ in the bucket`,
    );
    if (config.dryRun) {
      const actions = reportDryRun(logger, uploads, [], base.unchanged);
      return { ...base, uploaded: 0, bytes: 0, actions, durationMs: now() - started };
    }

    const actions: PublishAction[] = [];
    const progress = deps.progress ?? createBuildProgress(now);
    const record = (action: PublishAction): void => {
      actions.push(action);
      onAction(action);
    };
    try {
      await signAdopted(store, bucket.adopted, config.records, new Set());
      await uploadInStages(uploads, { store, logger, concurrency: config.concurrency, progress, onAction: record });
    } catch (error) {
      logger.warn(
        'publish',
        `rollback stopped after ${uploadsDone(progress).done} of ${uploads.length} uploads; latest.json still names ${base.previousBuildId ?? 'no build'}`,
      );
      throw error;
    }
    const result: PublishResult = { ...base, uploaded: uploads.length, bytes: bytesOf(uploads), actions, durationMs: now() - started };
    logger.info('publish', summaryLine('rolled back to', result, store.location));
    return result;
  } finally {
    if (!deps.store) store.close();
  }
}

// --- internal ---

/** Keys of the target build whose object is missing or holds other bytes. */
async function staleKeys(
  manifest: FileManifest,
  remote: ReadonlyMap<string, RemoteObject>,
  store: ObjectStore,
  concurrency: number,
): Promise<string[]> {
  const limit = pLimit(concurrency);
  const entries = Object.entries(manifest.files);
  const same = await Promise.all(
    entries.map(([key, entry]) =>
      limit(async () => {
        const verdict = compareWithRemote(entry, remote.get(key));
        if (verdict === 'check') return (await store.headSha256(key)) === entry.sha256;
        return verdict === 'unchanged';
      }),
    ),
  );
  return entries.filter((_, i) => !same[i]).map(([key]) => key);
}

/** The build in `dir` when it is build `id`; null when the folder holds no build or another one. */
async function localBuildOf(dir: string, id: string): Promise<LocalBuild | null> {
  try {
    const local = await readLocalBuild(dir);
    return local.latest.id === id ? local : null;
  } catch (error) {
    if (!isBuildError(error)) throw error;
    return null;
  }
}

/** Whether a manifest lists exactly the local build's files with their hashes (latest.json aside). */
function matches(manifest: FileManifest, local: LocalBuild): boolean {
  const files = local.files.filter((f) => f.key !== LATEST_FILE);
  return files.length === Object.keys(manifest.files).length && files.every((f) => manifest.files[f.key]?.sha256 === f.sha256);
}

/** Uploads that restore the stale keys from a local copy of the target build; refuses without one. */
function restoreFrom(
  local: LocalBuild | null,
  dir: string,
  id: string,
  stale: readonly string[],
  remote: ReadonlyMap<string, RemoteObject>,
): PlannedUpload[] {
  const byKey = new Map(local ? local.files.map((f) => [f.key, f]) : []);
  const files = stale.map((key) => byKey.get(key));
  if (files.some((f) => f === undefined)) throw createBuildError(BuildErrors.RollbackNeedsOutput, [id, stale.length, dir]);
  return files.map((file) => ({ file: file!, reason: remote.has(file!.key) ? 'changed' : 'new' }));
}

function describeBuilds(manifests: readonly FileManifest[]): string {
  const builds = newestFirst(manifests).map((m) => `${m.id} (${new Date(m.timestamp).toISOString()})`);
  return builds.length > 0 ? builds.join(', ') : 'none';
}
