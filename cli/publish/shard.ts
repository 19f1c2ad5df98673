import { SHARDS_DIR, type ShardManifest } from '../build/shard.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import type { PublishConfig } from './config.ts';
import type { PublishDeps } from './deps.ts';
import { uploadInStages, type PublishAction } from './execute.ts';
import { memoryFile, readLocalFiles } from './local.ts';
import { createManifest, serializeManifest } from './manifest.ts';
import { bytesOf, planUploads } from './plan.ts';
import { pendingFileFor } from './policy.ts';
import { createProgress } from './progress.ts';
import { readBucketBuilds } from './remote-builds.ts';
import { reportDryRun, type PublishResult } from './report.ts';
import { foreignInTheWay, foreignKeys, ownedKeys } from './retention.ts';
import { createS3Store } from './s3-store.ts';

/**
 * Publishes one shard of a sharded build (`site build --shard i/n`) beside the others, from every
 * machine at once: its pages, payloads, media and assets, listed first in a pending record of its own
 * (so no publish takes them for foreign objects), and never latest.json, a build's meta or a deletion.
 * Visitors see nothing of it until the merged build is published (`site build --merge`, then
 * `site publish`), which finds these files already there and uploads only what spans the site.
 */
export async function publishShard(config: PublishConfig, deps: PublishDeps, shard: ShardManifest): Promise<PublishResult> {
  const { logger, now = Date.now, onAction = () => {} } = deps;
  const started = now();
  const id = `${shard.buildId}_shard-${shard.shard.index}-of-${shard.shard.count}`;
  const local = await readLocalFiles(config.outDir, (key) => key.startsWith(`${SHARDS_DIR}/`));
  const store = deps.store ?? createS3Store(config);
  try {
    logger.info('publish', `shard ${shard.shard.index}/${shard.shard.count} of build ${shard.buildId}: ${local.length} files in ${config.outDir} to ${store.location}${config.dryRun ? ' (dry run)' : ''}`);
    const remote = await store.list();
    const bucket = await readBucketBuilds(store, remote, logger, config.concurrency);
    const pendingRecord = memoryFile(pendingFileFor(id), Buffer.from(serializeManifest(createManifest(id, shard.timestamp, local.map((f) => [f.key, f] as const)))));
    const foreign = foreignKeys(remote.keys(), ownedKeys(bucket.manifests, bucket.pending));
    if (foreign.length > 0 && !config.allowForeignObjects) throw createBuildError(BuildErrors.StorageHoldsForeignObjects, [store.location, foreign.length, foreign.slice(0, 5).join(', ')]);
    const inTheWay = foreignInTheWay(foreign, [...local.map((f) => f.key), pendingRecord.key]);
    if (inTheWay.length > 0) throw createBuildError(BuildErrors.StorageForeignObjectInTheWay, [store.location, inTheWay.length, inTheWay.slice(0, 5).join(', ')]);
    const plan = await planUploads(local, remote, (key) => store.headSha256(key), config.concurrency);
    // latest.json names the same build before and after a shard's upload.
    const base = { buildId: bucket.latest?.id ?? '', previousBuildId: bucket.latest?.id ?? null, dryRun: config.dryRun, unchanged: plan.unchanged.length, deferredDeletes: 0, keptBuilds: [] as string[], deleted: 0 };
    if (config.dryRun) return { ...base, uploaded: 0, bytes: 0, actions: reportDryRun(logger, plan.uploads, [], plan.unchanged.length), durationMs: now() - started };
    const actions: PublishAction[] = [];
    const progress = createProgress(logger, { total: plan.uploads.length, totalBytes: bytesOf(plan.uploads), intervalMs: deps.progressIntervalMs, now });
    // Before any file: every key this shard writes is then listed by a record of publish's own.
    await store.put(pendingRecord.key, pendingRecord.body!, pendingRecord);
    await uploadInStages(plan.uploads, { store, logger, concurrency: config.concurrency, progress, onAction: (action) => (actions.push(action), onAction(action)) });
    logger.info('publish', `shard ${shard.shard.index}/${shard.shard.count}: ${plan.uploads.length} uploaded, ${plan.unchanged.length} unchanged; latest.json is unchanged until the merged build is published`);
    return { ...base, uploaded: plan.uploads.length, bytes: bytesOf(plan.uploads), actions, durationMs: now() - started };
  } finally {
    if (!deps.store) store.close();
  }
}
