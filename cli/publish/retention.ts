import { LATEST_FILE } from '../../runtime/shared/paths.ts';
import type { FileManifest } from './manifest.ts';
import { manifestFileFor, policyFor } from './policy.ts';
import { compareText } from '../../runtime/shared/compare.ts';

/**
 * Which objects may go. Open tabs of recent builds still load their chunks and payloads, so every
 * key referenced by the live build or one of the newest other builds stays; a key that none of
 * those builds references is deletable. Pure: the caller lists the bucket and deletes.
 */

export interface RetentionInput {
  /** The build latest.json names after this run. */
  live: FileManifest;
  /** Every build manifest found in the bucket (the live build's may be among them). */
  stored: readonly FileManifest[];
  /** Builds that keep their files, the live one included. */
  keepBuilds: number;
  /** Keys listed before any upload; objects that appear later are never deleted by this run. */
  remoteKeys: Iterable<string>;
  maxDeletes: number;
}

/** What stays and what goes after a publish. */
export interface RetentionPlan {
  /** Builds whose files stay: the live build first, then the others newest first. */
  kept: string[];
  /** Builds in the bucket whose files are no longer protected. */
  dropped: string[];
  /** Keys to delete in this run, at most maxDeletes. */
  deletes: string[];
  /** Deletable keys left for a later run because of maxDeletes. */
  deferred: number;
}

/** Plans deletions after a publish or a rollback. */
export function planRetention({ live, stored, keepBuilds, remoteKeys, maxDeletes }: RetentionInput): RetentionPlan {
  const others = newestFirst(stored.filter((m) => m.id !== live.id));
  const keptOthers = others.slice(0, Math.max(0, keepBuilds - 1));
  const kept = [live, ...keptOthers];
  const protectedKeys = new Set<string>([LATEST_FILE]);
  for (const manifest of kept) {
    protectedKeys.add(manifestFileFor(manifest.id));
    for (const key of Object.keys(manifest.files)) protectedKeys.add(key);
  }
  const deletable = [...new Set(remoteKeys)].filter((key) => !protectedKeys.has(key)).sort(deletionOrder);
  return {
    kept: kept.map((m) => m.id),
    dropped: others.slice(keptOthers.length).map((m) => m.id),
    deletes: deletable.slice(0, maxDeletes),
    deferred: Math.max(0, deletable.length - maxDeletes),
  };
}

/** Builds ordered by their meta timestamp, newest first; the id breaks ties so the order is stable. */
export function newestFirst(manifests: readonly FileManifest[]): FileManifest[] {
  return [...manifests].sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

// --- internal ---

/**
 * Build records (meta and file manifests) go first: once deletion starts, a dropped build is no
 * longer offered to rollback, even if maxDeletes leaves some of its files for a later run.
 */
function deletionOrder(a: string, b: string): number {
  const ra = policyFor(a).stage === 'meta' ? 0 : 1;
  const rb = policyFor(b).stage === 'meta' ? 0 : 1;
  return ra - rb || compareText(a, b);
}
