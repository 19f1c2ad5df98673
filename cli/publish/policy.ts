import { ASSETS_DIR, SEARCH_DIR, SEARCH_PARTS_FILE } from '../../runtime/shared/contract.ts';
import { LATEST_FILE } from '../../runtime/shared/paths.ts';
import { contentTypeFor } from '../serve/content-types.ts';
import { mediaDisposition } from '../content/media-types.ts';
import { DERIVATIVE_PREFIX } from '../../runtime/shared/images.ts';

/**
 * Where each file of a build goes in the publish order, and the headers it is stored with. Pure: the
 * rules depend only on the key, so the same key gets the same headers in every build.
 */

/**
 * Upload stages, in order. A stage starts only when every upload of the one before has finished, so
 * whatever a visitor can reach from a newer file (chunks from a page, a build from latest.json) is
 * already in the bucket when that file appears.
 */
export const STAGES = ['assets', 'payloads', 'pages', 'meta', 'latest'] as const;
/** One of STAGES. */
export type Stage = (typeof STAGES)[number];

/** Content-addressed files: their name changes whenever their bytes do, so caches may keep them for a year. */
export const CACHE_IMMUTABLE = 'public, max-age=31536000, immutable';
/** Files that keep their name across builds: caches must ask the bucket before reusing them. */
export const CACHE_REVALIDATE = 'no-cache';
/** Media keep the URL the content gave them and are rarely replaced: an hour balances freshness and traffic. */
export const CACHE_MEDIA = 'public, max-age=3600';

/** Per-build list of every key and content hash; immutable like the build meta. */
export const FILES_DIR = `${ASSETS_DIR}/builds/files`;
const META_DIR = `${ASSETS_DIR}/builds/meta`;

// A record's key is `{dir}/{buildId}.{version}.json` (manifest.ts recordKeyFor); earlier versions wrote `{dir}/{buildId}.json`.

/**
 * File manifests of builds being published: written before any of their files, so every key publish
 * writes is listed by a record publish wrote (retention deletes nothing else), and removed once the
 * build is live. A stopped publish leaves its record, so a later run can clean up its files.
 */
export const PENDING_DIR = `${ASSETS_DIR}/builds/pending`;

/**
 * Copies of a shard's files that visitors must not see yet (`site publish` of a shard folder): pages,
 * payloads and media at `{STAGED_DIR}/{buildId}/{key}`. The merged build's publish copies them to their
 * keys, stage by stage, and removes them once latest.json names the build.
 */
export const STAGED_DIR = `${ASSETS_DIR}/builds/staged`;

/**
 * A shard stages only files at least this large. A smaller one costs the merged publish about as much to
 * upload again as to copy, and its staged copy one more request to delete: 4,000 pages of 2 to 6 KiB
 * took 68 to 88 s to copy and clean up on the test S3 server where uploading them took 44 to 53 s.
 */
export const STAGE_MIN_BYTES = 256 * 1024;

/** Where a shard stages its copy of `key` for build `buildId`. */
export function stagedKeyFor(buildId: string, key: string): string {
  return `${STAGED_DIR}/${buildId}/${key}`;
}

/** The id of the pending record a shard's publish writes for the files it uploads. */
export function shardRecordId(buildId: string, shard: { index: number; count: number }): string {
  return `${buildId}_shard-${shard.index}-of-${shard.count}`;
}

/** Whether a pending record is one of build `buildId`'s shards'. */
export function isShardRecordOf(buildId: string, recordId: string): boolean {
  return recordId.startsWith(`${buildId}_shard-`);
}

/**
 * Keys named by their content (hashed assets, search chunks): a build that needs other bytes uses
 * another name, so a key of this kind that is not in the bucket yet is one no published page names.
 * Build records are immutable too, but named by their build, never by their content.
 */
export function isContentAddressed(key: string): boolean {
  return policyFor(key).cacheControl === CACHE_IMMUTABLE && !key.startsWith(`${ASSETS_DIR}/builds/`);
}

/** The records publish keeps about builds: file manifests and pending records. */
export function isBuildRecord(key: string): boolean {
  return (key.startsWith(`${FILES_DIR}/`) || key.startsWith(`${PENDING_DIR}/`)) && key.endsWith('.json');
}

/** How one key is stored: when it goes up and with which headers. */
export interface ObjectPolicy {
  stage: Stage;
  contentType: string;
  cacheControl: string;
  /** `attachment` for media a browser could open as a document of the site (media-types.ts), else none. */
  contentDisposition?: string;
}

/** Stage, Content-Type and Cache-Control for a key relative to the site root (`news/index.html`). */
export function policyFor(key: string): ObjectPolicy {
  const contentType = contentTypeFor(key);
  if (key === LATEST_FILE) return { stage: 'latest', contentType, cacheControl: CACHE_REVALIDATE };
  if (key.startsWith(`${META_DIR}/`) || key.startsWith(`${FILES_DIR}/`))
    return { stage: 'meta', contentType, cacheControl: CACHE_IMMUTABLE };
  if (key.startsWith(`${ASSETS_DIR}/`)) return { stage: 'assets', contentType, cacheControl: CACHE_IMMUTABLE };
  if (key.startsWith(`${SEARCH_DIR}/`)) return searchPolicy(key, contentType);
  // An image's derivatives are named by a hash of their source and settings: their bytes never change.
  if (key.startsWith(DERIVATIVE_PREFIX.slice(1))) return { stage: 'assets', contentType, cacheControl: CACHE_IMMUTABLE };
  if (key.startsWith('media/')) {
    const contentDisposition = mediaDisposition(key);
    return { stage: 'assets', contentType, cacheControl: CACHE_MEDIA, ...(contentDisposition ? { contentDisposition } : {}) };
  }
  if (key === '_payload.json' || key.endsWith('/_payload.json')) return { stage: 'payloads', contentType, cacheControl: CACHE_REVALIDATE };
  // HTML, 404.html, sitemap.xml, robots.txt and feeds keep their names across builds.
  return { stage: 'pages', contentType, cacheControl: CACHE_REVALIDATE };
}

/**
 * The site search's index (cli/output/search-index.ts): its chunks are named by their content, so they
 * go up with the assets and are cached for a year; Pagefind's code and WebAssembly keep their names
 * and go up with the assets too, revalidated; `pagefind-entry.json`, which names the chunks of this
 * build, goes up with the pages, once every chunk it names is in the bucket. A partition's files
 * (`part-n/`) go as partition 0's, and `parts.json`, which names the partitions, after the pages.
 */
function searchPolicy(key: string, contentType: string): ObjectPolicy {
  const file = key.slice(SEARCH_DIR.length + 1);
  // A partition's files (search-index.ts) as partition 0's, one folder down.
  const own = file.replace(/^part-\d+\//, '');
  if (/^(?:index|fragment|filter)\/[^/]+$|^pagefind\.[^/]+\.pf_meta$/.test(own))
    return { stage: 'assets', contentType, cacheControl: CACHE_IMMUTABLE };
  // parts.json after every partition's entry: it never names one that is not in the bucket yet.
  if (key === SEARCH_PARTS_FILE) return { stage: 'meta', contentType, cacheControl: CACHE_REVALIDATE };
  return { stage: own === 'pagefind-entry.json' ? 'pages' : 'assets', contentType, cacheControl: CACHE_REVALIDATE };
}

/** Position of a stage in the publish order, for sorting. */
export function stageIndex(stage: Stage): number {
  return STAGES.indexOf(stage);
}

/** Build ids name keys in the bucket, so only the characters the build itself produces are accepted. */
export function isBuildId(value: string): boolean {
  return /^[A-Za-z0-9_-]{1,128}$/.test(value);
}
