import { SHARDS_DIR, type ShardManifest } from '../build/shard.ts';
import { plural } from '../terminal/format.ts';
import { createBuildProgress } from '../terminal/progress.ts';
import type { PublishConfig } from '../config/publish.ts';
import type { PublishDeps } from './deps.ts';
import { uploadInStages, type PublishAction } from './execute.ts';
import { memoryFile, readLocalFiles, type LocalFile } from './local.ts';
import { createManifest, recordKeyFor, signedRecord } from './manifest.ts';
import { bytesOf, compareWithRemote, planUploads } from './plan.ts';
import { isContentAddressed, PENDING_DIR, shardRecordId, STAGE_MIN_BYTES, STAGED_DIR, stagedKeyFor } from './policy.ts';
import { readBucketBuilds, recordReadingOf, signAdopted } from './remote-builds.ts';
import { reportDryRun, type PublishResult } from './report.ts';
import { checkForeignObjects, refuseForeignInTheWay } from './retention.ts';
import { createS3Store, type RemoteObject } from './s3-store.ts';

/**
 * Publishes one shard of a sharded build (`site build --shard i/n`) beside the others, from every
 * machine at once, so that nothing a visitor requests changes: its hashed assets go to their own keys
 * only where no object is yet (no published page names them), and its large files (STAGE_MIN_BYTES,
 * media mostly) to build-scoped copies under `_assets/builds/staged/{build}/`, which no page links to;
 * its pages and payloads are left to the merged publish. Everything it
 * writes is listed first in a signed pending record of its own; it never writes latest.json, a build's
 * meta, or deletes anything. The merged build's publish (`site build --merge`, then `site publish`)
 * copies the staged files to their keys inside the bucket and uploads the rest, stage by stage, then writes latest.json:
 * the build goes live in that one switch.
 */
export async function publishShard(config: PublishConfig, deps: PublishDeps, shard: ShardManifest): Promise<PublishResult> {
  const { logger, now = Date.now, onAction = () => {} } = deps;
  const started = now();
  const id = shardRecordId(shard.buildId, shard.shard);
  const own = await readLocalFiles(config.outDir, (key) => key.startsWith(`${SHARDS_DIR}/`));
  const store = deps.store ?? createS3Store(config);
  try {
    logger.info(
      'publish',
      `shard ${shard.shard.index}/${shard.shard.count} of build ${shard.buildId}: ${own.length} files in ${config.outDir} to ${store.location}${config.dryRun ? ' (dry run)' : ''}`,
    );
    const remote = await store.list();
    const bucket = await readBucketBuilds({
      store,
      remote,
      logger,
      ...recordReadingOf(config),
    });
    const local = own.map((file) => placeOf(file, shard.buildId, remote)).filter((file) => file !== null);
    const record = createManifest(
      id,
      shard.timestamp,
      local.map((f) => [f.key, f] as const),
    );
    const pendingKey = recordKeyFor(PENDING_DIR, record);
    const pendingRecord = memoryFile(pendingKey, Buffer.from(signedRecord(record, pendingKey, config.records)));
    // As a publish does (retention.ts checkForeignObjects): never over what publish did not write, beside it only when told to.
    const location = store.location;
    const { foreign, listing } = checkForeignObjects(remote, bucket, local, { allowForeign: config.allowForeignObjects, location });
    refuseForeignInTheWay(foreign, [pendingKey], location);
    const plan = await planUploads(local, listing, (key) => store.headSha256(key), config.concurrency);
    // latest.json names the same build before and after a shard's upload.
    const base = {
      buildId: bucket.latest?.id ?? '',
      previousBuildId: bucket.latest?.id ?? null,
      dryRun: config.dryRun,
      unchanged: plan.unchanged.length,
      deferredDeletes: 0,
      keptBuilds: [] as string[],
      deleted: 0,
    };
    if (config.dryRun)
      return {
        ...base,
        uploaded: 0,
        bytes: 0,
        actions: reportDryRun(logger, plan.uploads, [], plan.unchanged.length),
        durationMs: now() - started,
      };
    const actions: PublishAction[] = [];
    const progress = deps.progress ?? createBuildProgress(now);
    // Before any file: every key this shard writes is then listed by a record of publish's own.
    await store.put(pendingRecord.key, pendingRecord.body!, pendingRecord);
    await signAdopted(store, bucket.adopted, config.records, new Set([pendingRecord.key]));
    await uploadInStages(plan.uploads, {
      store,
      logger,
      concurrency: config.concurrency,
      progress,
      onAction: (action) => (actions.push(action), onAction(action)),
    });
    const staged = local.filter((f) => f.key.startsWith(`${STAGED_DIR}/`)).length;
    const left = own.length - local.length;
    logger.info(
      'publish',
      `shard ${shard.shard.index}/${shard.shard.count}: ${plan.uploads.length} uploaded, ${plan.unchanged.length} unchanged (${staged} staged for the merged build), ${plural(left, 'small file')} left to the merged publish; visitors see none of it until the merged build is published`,
    );
    return { ...base, uploaded: plan.uploads.length, bytes: bytesOf(plan.uploads), actions, durationMs: now() - started };
  } finally {
    if (!deps.store) store.close();
  }
}

// --- internal ---

/**
 * Where a shard's file goes: a hashed asset to its own key while no object is there (or it is there
 * with these bytes); a large file (media, mostly) to its staged copy; a small page or payload nowhere,
 * since the merged publish uploads it for about what copying it would cost.
 */
function placeOf(file: LocalFile, buildId: string, remote: ReadonlyMap<string, RemoteObject>): LocalFile | null {
  const verdict = compareWithRemote(file, remote.get(file.key));
  if (isContentAddressed(file.key) && (verdict === 'new' || verdict === 'unchanged')) return file;
  return file.size >= STAGE_MIN_BYTES ? { ...file, key: stagedKeyFor(buildId, file.key) } : null;
}
