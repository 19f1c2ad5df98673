import { createHash } from 'node:crypto';
import pLimit from 'p-limit';
import type { LatestBuild } from '../../runtime/shared/contract.ts';
import { LATEST_FILE } from '../../runtime/shared/paths.ts';
import type { PublishConfig } from '../config/publish.ts';
import { BuildErrors, isBuildError } from '../errors/errors.ts';
import type { Logger } from '../terminal/logger.ts';
import { memoryFile } from './local.ts';
import {
  isRecordKeyOf,
  mergeById,
  readRecordUnchecked,
  readSignedRecord,
  signedRecord,
  type FileManifest,
  type RecordProblem,
} from './manifest.ts';
import { FILES_DIR, isBuildId, PENDING_DIR } from './policy.ts';
import type { RecordAuth } from './record-auth.ts';
import type { ObjectStore, RemoteObject } from './s3-store.ts';

/** The builds the bucket holds, as the records publish can prove it wrote say. */
export interface BucketBuilds {
  /** What latest.json names now, or null before the first publish. Read for messages only: anyone who can write the bucket can write it. */
  latest: LatestBuild | null;
  /**
   * The builds the signed file manifests name, one per id (manifest.ts mergeById: the union of its
   * records' file lists, the latest of their timestamps), in no particular order (retention.ts newestFirst orders them).
   */
  manifests: FileManifest[];
  /** Every signed file manifest as stored, several for a build id published more than once: rollback picks the one that matches. */
  versions: FileManifest[];
  /** Signed pending records, one per id like `manifests`: file lists of builds whose publish started (and, unless it finished, stopped). */
  pending: FileManifest[];
  /** The key of every trusted record (file manifests and pending records), with the build id it names. */
  recordKeys: Map<string, string>;
  /** Records taken without a valid signature because the operator said so (`--adopt-records`), by key: publish signs them anew. */
  adopted: Map<string, FileManifest>;
}

export interface ReadBucketBuildsOptions {
  store: ObjectStore;
  /** The bucket's listing, as `store.list()` gave it. */
  remote: ReadonlyMap<string, RemoteObject>;
  logger: Logger;
  /** Records read at once. */
  concurrency: number;
  /** SITE_PUBLISH_KEY's: what a record's signature must verify with. */
  auth: RecordAuth;
  /** `--adopt-records`: take well-formed records without a valid signature, once, on the operator's word. @default false */
  adopt?: boolean;
  /** What a process that publishes again and again knows of the records it checked (`site live`). @default null: every record checked */
  checked?: CheckedRecords | null;
}

/** What of the publish options decides how the bucket's records are read: one mapping for every caller. */
export function recordReadingOf(
  config: Pick<PublishConfig, 'concurrency' | 'records' | 'adoptRecords'>,
): Pick<ReadBucketBuildsOptions, 'concurrency' | 'auth' | 'adopt'> {
  return { concurrency: config.concurrency, auth: config.records, adopt: config.adoptRecords };
}

/**
 * Reads latest.json, every file manifest under `_assets/builds/files/` and every pending record. Only
 * records whose signature verifies (record-auth.ts) are returned; every other object there is named in a
 * warning and left out, so nothing it lists is ever deleted, kept or taken for publish's own on its word.
 */
export async function readBucketBuilds({
  store,
  remote,
  logger,
  concurrency,
  auth,
  adopt = false,
  checked = null,
}: ReadBucketBuildsOptions): Promise<BucketBuilds> {
  const limit = pLimit(concurrency);
  const largeLimit = pLimit(1);
  const adopted = new Map<string, FileManifest>();
  const recordKeys = new Map<string, string>();
  const read = { store, remote, logger, limit, largeLimit, auth, adopted: adopt ? adopted : null, recordKeys, checked };
  // Records no longer in the bucket are forgotten.
  if (checked) for (const key of checked.keys()) if (!remote.has(key)) checked.delete(key);
  const [latestText, versions, pending] = await Promise.all([
    remote.has(LATEST_FILE) ? store.getText(LATEST_FILE) : null,
    readRecords({ ...read, dir: FILES_DIR }),
    readRecords({ ...read, dir: PENDING_DIR }),
  ]);
  return {
    latest: latestText ? parseLatest(latestText) : null,
    manifests: mergeById(versions),
    versions,
    pending: mergeById(pending),
    recordKeys,
    adopted,
  };
}

/**
 * What a process that publishes again and again (`site live`) knows of the records it read: the digest
 * of each key's text (recordDigest: not the text, which a bucket's planted records could make as large
 * as they like) and what checking it found, for the same text under the same key and signing key. A
 * build's record is 4.8 MB of JSON at 25,800 files; parsing and checking it took about 0.1 s each publish.
 */
export type CheckedRecords = Map<string, { digest: string; auth: RecordAuth; read: ReturnType<typeof readSignedRecord> }>;

/** The digest CheckedRecords knows a record's text by. */
export function recordDigest(text: string): string {
  return digestOfSha256(createHash('sha256').update(text).digest('hex'));
}

/** recordDigest of a text whose UTF-8 bytes' hex SHA-256 is `sha256` (one taken already, for its upload). */
export function digestOfSha256(sha256: string): string {
  return Buffer.from(sha256, 'hex').toString('base64url');
}

/** Writes the adopted records (--adopt-records) back signed, but for `skip` (records this run writes anyway). */
export async function signAdopted(
  store: ObjectStore,
  adopted: ReadonlyMap<string, FileManifest>,
  auth: RecordAuth,
  skip: ReadonlySet<string>,
): Promise<void> {
  for (const [key, manifest] of adopted) {
    if (skip.has(key)) continue;
    const file = memoryFile(key, Buffer.from(signedRecord(manifest, key, auth)));
    await store.put(key, file.body!, file);
  }
}

/** The bytes of latest.json for a build, exactly as `site build` writes them. */
export function latestJson(build: LatestBuild): string {
  const latest: LatestBuild = { id: build.id, timestamp: build.timestamp };
  return JSON.stringify(latest);
}

// --- internal ---

interface RecordsRead {
  store: ObjectStore;
  remote: ReadonlyMap<string, RemoteObject>;
  dir: string;
  logger: Logger;
  limit: ReturnType<typeof pLimit>;
  /** Records over LARGE_RECORD_BYTES are read one at a time besides: a few such texts at once would be the process's memory. */
  largeLimit: ReturnType<typeof pLimit>;
  auth: RecordAuth;
  /** With --adopt-records: collects the well-formed records taken without a valid signature. */
  adopted: Map<string, FileManifest> | null;
  /** Collects the keys of the records taken, with the build id each names. */
  recordKeys: Map<string, string>;
  checked: CheckedRecords | null;
}

async function readRecords({
  store,
  remote,
  dir,
  logger,
  limit,
  largeLimit,
  auth,
  adopted,
  recordKeys,
  checked,
}: RecordsRead): Promise<FileManifest[]> {
  const keys = [...remote.keys()].filter((key) => key.startsWith(`${dir}/`) && key.endsWith('.json'));
  // Each record is checked as it arrives, its text then let go: at most `limit`'s few texts at once, however many the bucket holds.
  const judged = await Promise.all(
    keys.map((key) =>
      limit(async () => {
        const large = (remote.get(key)?.size ?? 0) > LARGE_RECORD_BYTES;
        let oversized = false;
        const text = await (large ? largeLimit(() => store.getText(key)) : store.getText(key)).catch((error: unknown) => {
          // Larger than any record publish writes: someone else's, ignored as any record not signed is.
          if (!isBuildError(error) || error.code !== BuildErrors.StorageRecordTooLarge.code) throw error;
          oversized = true;
          return null;
        });
        if (oversized) return { read: { problem: 'oversized' as const }, problem: 'oversized' as const, unchecked: null };
        if (text === null) return null;
        const digest = recordDigest(text);
        const known = checked?.get(key);
        const read = known && known.digest === digest && known.auth === auth ? known.read : readSignedRecord(text, key, auth);
        checked?.set(key, { digest, auth, read });
        const problem: RecordProblem | null = 'problem' in read ? read.problem : !isRecordKeyOf(key, dir, read.manifest) ? 'forged' : null;
        // Only what --adopt-records takes needs the text again.
        const unchecked = problem !== null && adopted && problem !== 'malformed' ? readRecordUnchecked(text) : null;
        return { read, problem, unchecked };
      }),
    ),
  );
  const records: FileManifest[] = [];
  keys.forEach((key, i) => {
    const judgement = judged[i];
    if (!judgement) return;
    const { read, problem, unchecked } = judgement;
    // A record signed for its key names itself (its versioned key, or the single key earlier versions wrote); anything else lists nothing: its files count as foreign and are never deleted.
    if (problem === null && 'manifest' in read) {
      recordKeys.set(key, read.manifest.id);
      return void records.push(read.manifest);
    }
    if (unchecked && isRecordKeyOf(key, dir, unchecked)) {
      adopted!.set(key, unchecked);
      recordKeys.set(key, unchecked.id);
      logger.warn(
        'publish',
        `adopting ${JSON.stringify(key)} (--adopt-records): ${WHY[problem!]}; taken as publish's own, and signed with SITE_PUBLISH_KEY unless this is a dry run`,
      );
      return void records.push(unchecked);
    }
    // The key comes from the bucket: quoted, so it cannot start a line of its own.
    logger.warn(
      'publish',
      `ignoring ${JSON.stringify(key)}: ${WHY[problem!]}; nothing it lists is deleted, kept or taken for publish's own on its word`,
    );
  });
  return records;
}

/** Records read one at a time: a build's own is 4.8 MB at 25,800 files. */
const LARGE_RECORD_BYTES = 8 * 1024 * 1024;

const WHY: Record<RecordProblem, string> = {
  oversized: 'larger than any build record site publish writes (not read)',
  malformed: 'not a build record',
  unsigned: 'a build record without a signature (written by an earlier version of site publish, or by someone else)',
  forged:
    'a build record whose signature does not verify with SITE_PUBLISH_KEY (forged, signed with another key, or copied from another key, prefix or bucket)',
};

function parseLatest(text: string): LatestBuild | null {
  try {
    const value = JSON.parse(text) as Partial<LatestBuild> | null;
    return value && typeof value.id === 'string' && isBuildId(value.id) && typeof value.timestamp === 'number'
      ? { id: value.id, timestamp: value.timestamp }
      : null;
  } catch {
    return null;
  }
}
