import { LATEST_FILE } from '../../runtime/shared/paths.ts';
import { createBuildProgress } from '../terminal/progress.ts';
import type { PublishDeps } from './deps.ts';
import { readShardManifest } from '../build/shard.ts';
import { isSiteOutput } from '../output/output.ts';
import { publishShard } from './shard.ts';
import type { PublishConfig } from '../config/publish.ts';
import { deleteKeys, uploadInStages, uploadsDone, type PublishAction } from './execute.ts';
import { readLocalBuild, memoryFile } from './local.ts';
import { createManifest, recordKeyFor, signedRecord, type FileManifest, type ManifestEntry } from './manifest.ts';
import { bytesOf, planUploads } from './plan.ts';
import { FILES_DIR, isShardRecordOf, PENDING_DIR } from './policy.ts';
import { digestOfSha256, readBucketBuilds, recordReadingOf, signAdopted, type BucketBuilds } from './remote-builds.ts';
import { logRetention, reportDryRun, summaryLine, type PublishResult } from './report.ts';
import { checkForeignObjects, ownedKeys, planRetention, refuseForeignInTheWay } from './retention.ts';
import { createS3Store } from './s3-store.ts';
import { shardHandover } from './staged.ts';

export { resolvePublishConfig, PUBLISH_DEFAULTS, type PublishConfig, type PublishOptions } from '../config/publish.ts';
export { rollback } from './rollback.ts';
export type { PublishAction } from './execute.ts';
export type { PublishResult } from './report.ts';
export type { ObjectStore } from './s3-store.ts';
export type { PublishDeps } from './deps.ts';

/**
 * Publishes the build in `config.outDir` to the bucket, safely for visitors who have the site open:
 * only changed files are uploaded, stage by stage (assets and media, payloads, pages, build
 * records, latest.json last); files of the last `keepBuilds` builds stay, and older unreferenced
 * ones are deleted only after latest.json names the new build. Any failure before that leaves
 * latest.json naming the previous complete build.
 */
export async function publish(config: PublishConfig, deps: PublishDeps): Promise<PublishResult> {
  const { logger, now = Date.now, onAction = () => {} } = deps;
  const started = now();
  // Where the time went, under --verbose: a resident publisher (site live) is timed phase by phase.
  const phases: string[] = [];
  let phaseStart = performance.now();
  const phase = (name: string): void => {
    const at = performance.now();
    phases.push(`${name} ${Math.round(at - phaseStart)} ms`);
    phaseStart = at;
  };
  // A shard's folder (site build --shard) is no site yet: its files go up beside the other shards'.
  const shard = (await isSiteOutput(config.outDir)) ? null : await readShardManifest(config.outDir);
  if (shard) return publishShard(config, deps, shard);
  const local = await readLocalBuild(config.outDir, deps.hashes, deps.changed);
  phase('folder read');
  const id = local.latest.id;
  const store = deps.store ?? createS3Store(config);
  try {
    logger.info(
      'publish',
      `build ${id}: ${local.files.length} files in ${config.outDir} to ${store.location}${config.dryRun ? ' (dry run)' : ''}`,
    );
    const remote = await store.list();
    phase('listing');
    const bucket = await readBucketBuilds({
      store,
      remote,
      logger,
      ...recordReadingOf(config),
      checked: deps.checkedRecords,
    });
    phase('records read');
    const previousBuildId = bucket.latest?.id ?? null;

    // The manifest records every key of this build except latest.json (which names a build) and itself.
    const manifest = createManifest(
      id,
      local.meta.timestamp,
      local.files.filter((f) => f.key !== LATEST_FILE).map((f) => [f.key, f] as const),
    );
    // Both records are signed for their own key: only they, read back, tell a later run what it may delete.
    // Each at its version's own key (manifest.ts recordKeyFor), so no other version of this build id is written over.
    const manifestKey = recordKeyFor(FILES_DIR, manifest);
    const manifestText = signedRecord(manifest, manifestKey, config.records);
    const manifestFile = memoryFile(manifestKey, Buffer.from(manifestText));
    const files = [...local.files, manifestFile];
    // Publish never writes over or deletes what it did not write, and writes beside it only when told to.
    const location = store.location;
    const { foreign, listing } = checkForeignObjects(remote, bucket, files, { allowForeign: config.allowForeignObjects, location });
    if (foreign.length > 0)
      logger.warn(
        'publish',
        `${foreign.length} objects under ${store.location} belong to no build published there (--allow-foreign-objects): they are never deleted or written over`,
      );
    const plan = await planUploads(files, listing, (key) => store.headSha256(key), config.concurrency);
    // The pending record lists the keys this run writes, its manifest but for itself, and the keys it
    // finds unchanged that only pending records list (another run's, which a third run's retention may
    // delete before this one ends): every other key of the build is in the bucket already and listed by a
    // signed file manifest (checkForeignObjects leaves no unlisted object unchanged). An edit's record is
    // then its few keys rather than the manifest again.
    const inManifests = ownedKeys(bucket.manifests, [], []);
    const pending = createManifest(id, local.meta.timestamp, [
      ...plan.uploads
        .filter((u) => u.file.key !== manifestKey && u.file.key !== LATEST_FILE)
        .map((u): [string, ManifestEntry] => [u.file.key, u.file]),
      ...plan.unchanged.filter((f) => f.key !== LATEST_FILE && !inManifests.has(f.key)).map((f): [string, ManifestEntry] => [f.key, f]),
    ]);
    const pendingKey = recordKeyFor(PENDING_DIR, pending);
    refuseForeignInTheWay(foreign, [pendingKey], location);
    const pendingRecord = memoryFile(pendingKey, Buffer.from(signedRecord(pending, pendingKey, config.records)));
    phase('manifest and plan');
    // What this build's shards uploaded beforehand: copied into place, then removed as housekeeping.
    const handover = shardHandover(manifest, bucket.manifests, bucket.pending, remote, bucket.recordKeys);
    // Earlier attempts' pending records of this build id, when the new manifest lists every key they do
    // (a retry, or an edit published again): housekeeping like this run's own, not left to retention.
    const attempts = attemptsOf(id, bucket, manifest, pendingRecord.key);
    const housekeeping = new Set([pendingRecord.key, ...attempts, ...handover.leftovers, ...handover.records]);
    const retention = planRetention({
      live: manifest,
      stored: bucket.manifests,
      // This run's own pending record and its shards' are housekeeping: removed once the build is live.
      pending: bucket.pending.filter((p) => !isShardRecordOf(id, p.id)),
      recordKeys: bucket.recordKeys,
      liveRecord: manifestKey,
      keepBuilds: config.keepBuilds,
      remoteKeys: [...remote.keys()].filter((key) => !housekeeping.has(key)),
      maxDeletes: config.maxDeletes,
    });
    phase('retention planned');
    const copies = plan.uploads.filter((u) => handover.sources.has(u.file.key)).length;
    const base = {
      buildId: id,
      previousBuildId,
      dryRun: config.dryRun,
      unchanged: plan.unchanged.length,
      deferredDeletes: retention.deferred,
      keptBuilds: retention.kept,
    };
    logger.info(
      'publish',
      `latest.json names ${previousBuildId ? `build ${previousBuildId}` : 'no build yet'}; ${plan.uploads.length} to upload${copies > 0 ? ` (${copies} copied from the shards' staged files)` : ''}, ${plan.unchanged.length} unchanged, ${retention.deletes.length} to delete`,
    );

    if (config.dryRun) {
      logRetention(logger, retention.kept, retention.dropped, retention.deferred, config.maxDeletes);
      const actions = reportDryRun(
        logger,
        plan.uploads,
        [...retention.deletes, ...retention.records, ...attempts, ...handover.leftovers, ...handover.records],
        plan.unchanged.length,
      );
      return { ...base, uploaded: 0, deleted: 0, bytes: 0, actions, durationMs: now() - started };
    }

    const actions: PublishAction[] = [];
    const record = (action: PublishAction): void => {
      actions.push(action);
      onAction(action);
    };
    const progress = deps.progress ?? createBuildProgress(now);
    try {
      // Before any file: every key this run writes is then listed by a record of publish's own.
      if (plan.uploads.length > 0) await store.put(pendingRecord.key, pendingRecord.body!, pendingRecord);
      // Adopted records are signed before anything relies on them in a later run.
      await signAdopted(store, bucket.adopted, config.records, new Set([pendingRecord.key, manifestKey]));
      phase('pending record');
      await uploadInStages(plan.uploads, {
        store,
        logger,
        concurrency: config.concurrency,
        progress,
        onAction: record,
        sources: handover.sources,
      });
      phase('uploads');
      // The record this run signed and put needs no check when the next publish reads these bytes back.
      // Its digest is the SHA-256 its upload was hashed with (recordDigest of the same bytes), not a sixth pass over them.
      deps.checkedRecords?.set(manifestKey, { digest: digestOfSha256(manifestFile.sha256), auth: config.records, read: { manifest } });
    } catch (error) {
      const run = uploadsDone(progress);
      logger.warn(
        'publish',
        `stopped during ${run.running ?? 'upload'} after ${run.done} of ${plan.uploads.length} uploads; latest.json still names ${previousBuildId ? `build ${previousBuildId}` : 'no build'}`,
      );
      throw error;
    }

    deps.onLive?.();
    logRetention(logger, retention.kept, retention.dropped, retention.deferred, config.maxDeletes);
    const deleting = { store, logger, concurrency: config.concurrency, onAction: record };
    const removed = await deleteKeys(retention.deletes, deleting);
    // Records go only when every file they list that was to go is gone, so none is left unlisted.
    const records =
      removed.failed.length === 0
        ? await deleteKeys(retention.records, deleting)
        : { deleted: 0, failed: retention.records.map((key) => ({ key, cause: 'kept until its files are deleted' })) };
    // The shards' staged copies and records: proven this build's own by their signed records, and needed by nothing now.
    const leftovers = await deleteKeys(handover.leftovers, deleting);
    const shardRecords = leftovers.failed.length === 0 ? await deleteKeys(handover.records, deleting) : { deleted: 0, failed: [] };
    const deletion = {
      deleted: removed.deleted + records.deleted + leftovers.deleted + shardRecords.deleted,
      failed: [...removed.failed, ...records.failed, ...leftovers.failed, ...shardRecords.failed],
    };
    // The build is live and listed by its manifest now; its pending records have served their purpose.
    for (const key of [...(plan.uploads.length > 0 ? [pendingRecord.key] : []), ...attempts])
      await store.delete(key).catch(() => logger.warn('publish', `could not delete ${key}; the next publish removes it`));
    const result: PublishResult = {
      ...base,
      uploaded: plan.uploads.length,
      deleted: deletion.deleted,
      deferredDeletes: retention.deferred + deletion.failed.length,
      bytes: bytesOf(plan.uploads),
      actions,
      durationMs: now() - started,
    };
    phase('deletions');
    logger.debug?.('publish', `time by phase: ${phases.join(' · ')}`);
    logger.info('publish', summaryLine('published', result, store.location));
    return result;
  } finally {
    if (!deps.store) store.close();
  }
}

// --- internal ---

/**
 * The keys of build `id`'s trusted pending records other than `own` (not its shards'), when `live` lists
 * every key they list: nothing they own is left unlisted once they go.
 */
function attemptsOf(id: string, bucket: BucketBuilds, live: FileManifest, own: string): string[] {
  const earlier = bucket.pending.find((p) => p.id === id);
  if (!earlier || !Object.keys(earlier.files).every((key) => Object.hasOwn(live.files, key))) return [];
  return [...bucket.recordKeys]
    .filter(([key, recordId]) => recordId === id && key.startsWith(`${PENDING_DIR}/`) && key !== own)
    .map(([key]) => key);
}
