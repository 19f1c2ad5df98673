import { LATEST_FILE } from '../../runtime/shared/paths.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import type { FileManifest, ManifestEntry } from './manifest.ts';
import { compareWithRemote } from './plan.ts';
import { FILES_DIR, isBuildRecord, policyFor } from './policy.ts';
import type { BucketBuilds } from './remote-builds.ts';
import { compareText } from '../../runtime/shared/compare.ts';
import type { RemoteObject } from './s3-store.ts';

/**
 * Which objects may go. Publish deletes only what a build it published lists (issue 17.2): the keys
 * of the file manifests and pending records it wrote, never an unknown key under the prefix. Open
 * tabs of recent builds still load their chunks and payloads, so every key the live build or one of
 * the newest other builds lists stays. Pure: the caller lists the bucket and deletes.
 */

export interface RetentionInput {
  /** The build latest.json names after this run. */
  live: FileManifest;
  /** Every build manifest found in the bucket (the live build's may be among them). */
  stored: readonly FileManifest[];
  /** Every pending record found in the bucket (publishes that started; this run's is among them once written). */
  pending: readonly FileManifest[];
  /** The key of every trusted record in the bucket, with the build id it names (remote-builds.ts). */
  recordKeys: ReadonlyMap<string, string>;
  /** The key of the live build's own file manifest (its version's, manifest.ts recordKeyFor): its other versions' records may go. */
  liveRecord: string;
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
  /** Keys to delete in this run (build metas first), at most maxDeletes with `records`. */
  deletes: string[];
  /**
   * Records (file manifests, pending records) to delete after every key of `deletes` is gone: a record
   * goes last, so a key it lists is never left in the bucket without a record that lists it.
   */
  records: string[];
  /** Deletable keys left for a later run because of maxDeletes. */
  deferred: number;
}

/** Plans deletions after a publish or a rollback. */
export function planRetention({
  live,
  stored,
  pending,
  recordKeys,
  liveRecord,
  keepBuilds,
  remoteKeys,
  maxDeletes,
}: RetentionInput): RetentionPlan {
  const others = newestFirst(stored.filter((m) => m.id !== live.id));
  const keptOthers = others.slice(0, Math.max(0, keepBuilds - 1));
  const kept = [live, ...keptOthers];
  const keptOtherIds = new Set(keptOthers.map((m) => m.id));
  // Every version's record of a kept build stays (their union is what it keeps); the live build keeps only the version it is.
  const keptRecords = [...recordKeys].filter(([key, id]) => key.startsWith(`${FILES_DIR}/`) && keptOtherIds.has(id)).map(([key]) => key);
  const protectedKeys = keysOf(kept, [LATEST_FILE, liveRecord, ...keptRecords]);
  const owned = ownedKeys([live, ...stored], pending, recordKeys.keys());
  const deletable = [...new Set(remoteKeys)].filter((key) => owned.has(key) && !protectedKeys.has(key));
  const files = deletable.filter((key) => !isBuildRecord(key)).sort(deletionOrder);
  const records = deletable.filter(isBuildRecord).sort(compareText);
  const fileDeletes = files.slice(0, maxDeletes);
  // Records only when every file before them fits: a deferred file keeps its record for the next run.
  const recordDeletes = fileDeletes.length === files.length ? records.slice(0, maxDeletes - fileDeletes.length) : [];
  return {
    kept: kept.map((m) => m.id),
    dropped: others.slice(keptOthers.length).map((m) => m.id),
    deletes: fileDeletes,
    records: recordDeletes,
    deferred: deletable.length - fileDeletes.length - recordDeletes.length,
  };
}

/** Every key publish wrote, as its records say: the records themselves (`recordKeys`) and every key they list. */
export function ownedKeys(manifests: readonly FileManifest[], pending: readonly FileManifest[], recordKeys: Iterable<string>): KeySet {
  return keysOf([...manifests, ...pending], [LATEST_FILE, ...recordKeys]);
}

/** A set of keys asked key by key. */
export interface KeySet {
  has(key: string): boolean;
}

/**
 * The keys `records` list, and `keys`: looked up in the records themselves rather than copied into one
 * set, which at 25,800 keys a build took a publish 50 ms and as much garbage, twice, for each edit `site live` publishes.
 */
function keysOf(records: readonly FileManifest[], keys: Iterable<string>): KeySet {
  const own = new Set(keys);
  return { has: (key) => own.has(key) || records.some((record) => Object.hasOwn(record.files, key)) };
}

/** Keys under the prefix that no record publish wrote lists: another app's, a backup, a hand upload. */
export function foreignKeys(remoteKeys: Iterable<string>, owned: KeySet): string[] {
  return [...remoteKeys].filter((key) => !owned.has(key)).sort(compareText);
}

/** The foreign keys a build would write over: --allow-foreign-objects publishes beside them, never over them. */
export function foreignInTheWay(foreign: readonly string[], written: Iterable<string>): string[] {
  const keys = new Set(written);
  return foreign.filter((key) => keys.has(key));
}

/** What a run makes of the objects under the prefix that no record of publish's own lists. */
export interface ForeignObjects {
  /** Keys left to whoever wrote them: never deleted, never written over. */
  foreign: string[];
  /** The listing to plan the run's uploads against: the objects it takes back left out, so they are written again with publish's headers. */
  listing: ReadonlyMap<string, RemoteObject>;
}

/**
 * Sorts out, for a run (a publish or a shard's) that writes `files`, the objects under the prefix that no record of publish's own lists. Those that already
 * hold exactly the bytes the run writes at their key (equal size and a single-part MD5 ETag) lose
 * nothing by being written again, and the run's new signed record owns them: they neither block it nor
 * count as foreign, so a build whose record was deleted or overwritten is taken back by publishing it
 * again. Any other is foreign: StorageHoldsForeignObjects unless `allowForeign`, and
 * StorageForeignObjectInTheWay when the run would write over it, flag or not (writing over an object is
 * losing it as surely as deleting it).
 */
export function checkForeignObjects(
  remote: ReadonlyMap<string, RemoteObject>,
  records: Pick<BucketBuilds, 'manifests' | 'pending' | 'recordKeys'>,
  files: readonly (ManifestEntry & { key: string })[],
  options: { allowForeign: boolean; location: string },
): ForeignObjects {
  const listed = foreignKeys(remote.keys(), ownedKeys(records.manifests, records.pending, records.recordKeys.keys()));
  // Every object listed by a record, the usual case: nothing to reclaim or refuse, and no map of the build's files made.
  if (listed.length === 0) return { foreign: [], listing: remote };
  const byKey = new Map(files.map((file) => [file.key, file] as const));
  const reclaimed = new Set(listed.filter((key) => byKey.has(key) && compareWithRemote(byKey.get(key)!, remote.get(key)) === 'unchanged'));
  const foreign = listed.filter((key) => !reclaimed.has(key));
  if (foreign.length > 0 && !options.allowForeign)
    throw createBuildError(BuildErrors.StorageHoldsForeignObjects, [options.location, foreign.length, someOf(foreign)]);
  refuseForeignInTheWay(foreign, byKey.keys(), options.location);
  return { foreign, listing: reclaimed.size === 0 ? remote : new Map([...remote].filter(([key]) => !reclaimed.has(key))) };
}

/** StorageForeignObjectInTheWay when a run would write one of `keys` over a foreign object (checkForeignObjects's `foreign`). */
export function refuseForeignInTheWay(foreign: readonly string[], keys: Iterable<string>, location: string): void {
  const inTheWay = foreignInTheWay(foreign, keys);
  if (inTheWay.length > 0) throw createBuildError(BuildErrors.StorageForeignObjectInTheWay, [location, inTheWay.length, someOf(inTheWay)]);
}

/** Builds ordered by their meta timestamp, newest first; the id breaks ties so the order is stable. */
export function newestFirst(manifests: readonly FileManifest[]): FileManifest[] {
  return [...manifests].sort((a, b) => b.timestamp - a.timestamp || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

// --- internal ---

/**
 * Build metas go first: once deletion starts, a dropped build is no longer offered to rollback, even
 * if maxDeletes leaves some of its files for a later run.
 */
function deletionOrder(a: string, b: string): number {
  const ra = policyFor(a).stage === 'meta' ? 0 : 1;
  const rb = policyFor(b).stage === 'meta' ? 0 : 1;
  return ra - rb || compareText(a, b);
}

/** The first five keys for a message, and an ellipsis when there are more. */
function someOf(keys: readonly string[]): string {
  return keys.slice(0, 5).join(', ') + (keys.length > 5 ? ', …' : '');
}
