import type { CopySource } from './execute.ts';
import type { FileManifest } from './manifest.ts';
import { compareWithRemote } from './plan.ts';
import { isShardRecordOf, PENDING_DIR, STAGED_DIR } from './policy.ts';
import { ownedKeys } from './retention.ts';
import type { RemoteObject } from './s3-store.ts';

/**
 * What the shards of a build left for its merged publish (shard.ts): their staged copies, which the
 * publish copies to the live keys instead of uploading the same bytes again, and then removes with the
 * shards' records once latest.json names the build. Only signed records of this build's shards are read
 * (remote-builds.ts), and a staged copy is used only when that record, the listing and the merged build
 * all agree on its bytes.
 */
export interface ShardHandover {
  /** Staged copies to copy from, by the key they go to. */
  sources: Map<string, CopySource>;
  /** Objects the shards wrote that the live build does not list and no other build does: removed after latest.json. */
  leftovers: string[];
  /** The shards' pending records, removed after their leftovers. */
  records: string[];
}

/** Reads the handover of build `live.id`'s shards from the signed pending records found in the bucket. */
export function shardHandover(
  live: FileManifest,
  stored: readonly FileManifest[],
  pending: readonly FileManifest[],
  remote: ReadonlyMap<string, RemoteObject>,
  recordKeys: ReadonlyMap<string, string>,
): ShardHandover {
  const shards = pending.filter((record) => isShardRecordOf(live.id, record.id));
  const staged = `${STAGED_DIR}/${live.id}/`;
  const sources = new Map<string, CopySource>();
  const kept = ownedKeys([live, ...stored], [], []);
  const leftovers = new Set<string>();
  for (const record of shards) {
    for (const [key, entry] of Object.entries(record.files)) {
      if (remote.has(key) && !kept.has(key)) leftovers.add(key);
      const target = key.startsWith(staged) ? key.slice(staged.length) : null;
      const wanted = target === null ? undefined : live.files[target];
      const there = remote.get(key);
      if (!wanted || !there || wanted.md5 !== entry.md5 || wanted.size !== entry.size || compareWithRemote(wanted, there) !== 'unchanged')
        continue;
      sources.set(target!, { key, etag: there.etag });
    }
  }
  return {
    sources,
    leftovers: [...leftovers].sort(),
    records: [...recordKeys]
      .filter(([key, id]) => key.startsWith(`${PENDING_DIR}/`) && isShardRecordOf(live.id, id) && remote.has(key))
      .map(([key]) => key)
      .sort(),
  };
}
