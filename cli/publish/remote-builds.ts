import pLimit from 'p-limit';
import type { BuildMeta, LatestBuild } from '../../runtime/shared/contract.ts';
import { LATEST_FILE, metaFileFor } from '../../runtime/shared/paths.ts';
import type { Logger } from '../terminal/logger.ts';
import { parseManifest, type FileManifest } from './manifest.ts';
import { FILES_DIR, isBuildId, PENDING_DIR } from './policy.ts';
import type { ObjectStore, RemoteObject } from './s3-store.ts';

/** The builds the bucket holds, as their records say. */
export interface BucketBuilds {
  /** What latest.json names now, or null before the first publish. */
  latest: LatestBuild | null;
  /** Every readable file manifest, in no particular order (retention.ts newestFirst orders them). */
  manifests: FileManifest[];
  /** Pending records: file lists of builds whose publish started (and, unless it finished, stopped). */
  pending: FileManifest[];
}

/** Reads latest.json, every file manifest under `_assets/builds/files/` and every pending record. */
export async function readBucketBuilds(store: ObjectStore, remote: ReadonlyMap<string, RemoteObject>, logger: Logger, concurrency: number): Promise<BucketBuilds> {
  const limit = pLimit(concurrency);
  const [latestText, manifests, pending] = await Promise.all([
    remote.has(LATEST_FILE) ? store.getText(LATEST_FILE) : null,
    readRecords(store, remote, FILES_DIR, logger, limit),
    readRecords(store, remote, PENDING_DIR, logger, limit),
  ]);
  return { latest: latestText ? parseLatest(latestText) : null, manifests, pending };
}

/** Reads a build's meta from the bucket; null when it is missing or not a build meta. */
export async function readBucketMeta(store: ObjectStore, buildId: string): Promise<BuildMeta | null> {
  const text = await store.getText(metaFileFor(buildId));
  if (text === null) return null;
  try {
    const meta = JSON.parse(text) as Partial<BuildMeta> | null;
    return meta && meta.id === buildId && typeof meta.timestamp === 'number' ? (meta as BuildMeta) : null;
  } catch {
    return null;
  }
}

/** The bytes of latest.json for a build, exactly as `site build` writes them. */
export function latestJson(build: LatestBuild): string {
  const latest: LatestBuild = { id: build.id, timestamp: build.timestamp };
  return JSON.stringify(latest);
}

// --- internal ---

async function readRecords(store: ObjectStore, remote: ReadonlyMap<string, RemoteObject>, dir: string, logger: Logger, limit: ReturnType<typeof pLimit>): Promise<FileManifest[]> {
  const keys = [...remote.keys()].filter((key) => key.startsWith(`${dir}/`) && key.endsWith('.json'));
  const texts = await Promise.all(keys.map((key) => limit(() => store.getText(key))));
  const records: FileManifest[] = [];
  keys.forEach((key, i) => {
    const text = texts[i];
    if (text === null || text === undefined) return;
    const manifest = parseManifest(text);
    // An unreadable record lists nothing: its files count as foreign and are never deleted.
    if (!manifest || key !== `${dir}/${manifest.id}.json`) logger.warn('publish', `ignoring ${key}: not a build file manifest`);
    else records.push(manifest);
  });
  return records;
}

function parseLatest(text: string): LatestBuild | null {
  try {
    const value = JSON.parse(text) as Partial<LatestBuild> | null;
    return value && typeof value.id === 'string' && isBuildId(value.id) && typeof value.timestamp === 'number' ? { id: value.id, timestamp: value.timestamp } : null;
  } catch {
    return null;
  }
}
