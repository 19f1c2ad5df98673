import pLimit from 'p-limit';
import type { BuildMeta, LatestBuild } from '../../runtime/shared/contract.ts';
import { LATEST_FILE, metaFileFor } from '../../runtime/shared/paths.ts';
import type { Logger } from '../logger.ts';
import { parseManifest, type FileManifest } from './manifest.ts';
import { FILES_DIR, isBuildId } from './policy.ts';
import type { ObjectStore, RemoteObject } from './s3-store.ts';

/** The builds the bucket holds, as their records say. */
export interface BucketBuilds {
  /** What latest.json names now, or null before the first publish. */
  latest: LatestBuild | null;
  /** Every readable file manifest, in no particular order (retention.ts newestFirst orders them). */
  manifests: FileManifest[];
}

/** Reads latest.json and every file manifest listed under `_assets/builds/files/`. */
export async function readBucketBuilds(store: ObjectStore, remote: ReadonlyMap<string, RemoteObject>, logger: Logger, concurrency: number): Promise<BucketBuilds> {
  const limit = pLimit(concurrency);
  const manifestKeys = [...remote.keys()].filter((key) => key.startsWith(`${FILES_DIR}/`) && key.endsWith('.json'));
  const [latestText, ...manifestTexts] = await Promise.all([remote.has(LATEST_FILE) ? store.getText(LATEST_FILE) : null, ...manifestKeys.map((key) => limit(() => store.getText(key)))]);
  const manifests: FileManifest[] = [];
  manifestKeys.forEach((key, i) => {
    const text = manifestTexts[i];
    if (text === null || text === undefined) return;
    const manifest = parseManifest(text);
    // An unreadable record protects nothing; say so, since its build's files become deletable.
    if (!manifest || key !== `${FILES_DIR}/${manifest.id}.json`) logger.warn('publish', `ignoring ${key}: not a build file manifest`);
    else manifests.push(manifest);
  });
  return { latest: latestText ? parseLatest(latestText) : null, manifests };
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

function parseLatest(text: string): LatestBuild | null {
  try {
    const value = JSON.parse(text) as Partial<LatestBuild> | null;
    return value && typeof value.id === 'string' && isBuildId(value.id) && typeof value.timestamp === 'number' ? { id: value.id, timestamp: value.timestamp } : null;
  } catch {
    return null;
  }
}
