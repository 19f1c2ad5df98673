import { createHash } from 'node:crypto';
import { isBuildId } from './policy.ts';
import type { RecordAuth } from './record-auth.ts';
import { compareText } from '../../runtime/shared/compare.ts';

/**
 * The per-build file manifest, `_assets/builds/files/{buildId}.json`. Pages and payloads are
 * overwritten in place by every build, so the bucket alone cannot tell which build a key belongs
 * to; this record can. Retention keeps the union of the last builds' manifests, and rollback checks
 * the bucket against the target build's hashes.
 */

/** One file as the build wrote it. */
export interface ManifestEntry {
  size: number;
  /** Hex MD5: what S3 reports as the ETag of a single-part upload. */
  md5: string;
  /** Hex SHA-256: also stored as the object's `x-amz-meta-sha256`, for stores whose ETag is not an MD5. */
  sha256: string;
}

/** `_assets/builds/files/{buildId}.json`. */
export interface FileManifest {
  v: 1;
  id: string;
  /** The build meta's timestamp (ms since the epoch); retention orders builds by it. */
  timestamp: number;
  /** Every key of the build relative to the site root, except latest.json and this manifest. */
  files: Record<string, ManifestEntry>;
}

/** Builds the manifest with its keys sorted, so the same build always serialises to the same bytes. */
export function createManifest(id: string, timestamp: number, entries: Iterable<[string, ManifestEntry]>): FileManifest {
  const sorted = [...entries];
  // A build's files come sorted already (local.ts readLocalBuild): checked in one pass, sorted only if not.
  if (!sorted.every((entry, i) => i === 0 || compareText(sorted[i - 1]![0], entry[0]) < 0)) sorted.sort(([a], [b]) => compareText(a, b));
  // No prototype: a key such as `__proto__` is a key like any other.
  const files: Record<string, ManifestEntry> = Object.create(null) as Record<string, ManifestEntry>;
  for (const [key, { size, md5, sha256 }] of sorted) files[key] = Object.freeze({ size, md5, sha256 });
  const manifest: FileManifest = frozen({ v: 1, id, timestamp, files });
  canonicalManifests.add(manifest);
  return manifest;
}

/** The canonical text of a manifest: what its MAC covers. */
export function serializeManifest(manifest: FileManifest): string {
  return JSON.stringify(manifest);
}

/**
 * Where a record of this manifest is stored in `dir` (FILES_DIR or PENDING_DIR):
 * `{dir}/{id}.{first 16 hex of the SHA-256 of its canonical text}.json`. Every published version of a
 * build id (an edit gives the same id again) has its own key, so a genuine older version put back
 * can only add a record beside the newer one, never replace it.
 */
export function recordKeyFor(dir: string, manifest: FileManifest): string {
  let version = versions.get(manifest);
  if (version === undefined)
    versions.set(manifest, (version = createHash('sha256').update(canonicalText(manifest)).digest('hex').slice(0, 16)));
  return `${dir}/${manifest.id}.${version}.json`;
}

/** Whether `key` is a key a record of `manifest` may be stored at in `dir`: its versioned key, or `{dir}/{id}.json` as earlier versions of publish wrote. */
export function isRecordKeyOf(key: string, dir: string, manifest: FileManifest): boolean {
  return key === `${dir}/${manifest.id}.json` || key === recordKeyFor(dir, manifest);
}

/**
 * The builds a set of records name, one per id: the union of the file lists of its records, and the
 * latest timestamp among them. An older genuine record put back therefore never lowers a build's
 * timestamp nor shrinks its file list.
 */
export function mergeById(records: readonly FileManifest[]): FileManifest[] {
  const byId = new Map<string, FileManifest[]>();
  for (const record of records) {
    const versions = byId.get(record.id);
    if (versions) versions.push(record);
    else byId.set(record.id, [record]);
  }
  // A build id with a single record, the usual case, is that record: no copy of its 25,800 entries made each publish.
  return [...byId.values()].map((versions) => (versions.length === 1 ? versions[0]! : merged(versions)));
}

/** The record as stored at `recordKey`: the manifest with its MAC (record-auth.ts) as a last field. */
export function signedRecord(manifest: FileManifest, recordKey: string, auth: RecordAuth): string {
  const canonical = canonicalText(manifest);
  return `${canonical.slice(0, -1)},"mac":${JSON.stringify(auth.sign(recordKey, canonical))}}`;
}

/** Why a stored record is not trusted. */
export type RecordProblem = 'malformed' | 'unsigned' | 'forged' | 'oversized';

/**
 * Reads the record stored at `recordKey`. Only a record whose MAC verifies for this key, bucket and
 * prefix is returned; anything else (not a manifest, no MAC, a MAC that does not verify) is a problem
 * for the caller to report, and lists nothing.
 */
export function readSignedRecord(
  text: string,
  recordKey: string,
  auth: RecordAuth,
): { manifest: FileManifest } | { problem: RecordProblem } {
  // A large text is parsed only once its MAC verifies over the bytes before it, where publish puts it
  // (signedRecord): JSON of small objects takes some twenty times its size in memory once parsed, and a
  // record planted in the bucket must not cost that. A small one is parsed to say what is wrong with it.
  if (text.length > PARSE_UNSIGNED_MAX_CHARS) {
    const signed = SIGNED_TAIL.exec(text.slice(-SIGNED_TAIL_MAX));
    if (!signed) return { problem: 'unsigned' };
    if (!auth.verify(recordKey, `${text.slice(0, text.length - signed[0].length)}}`, signed[1]!)) return { problem: 'forged' };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'malformed' };
  }
  const manifest = parseManifest(value);
  if (!manifest || !isRecord(value)) return { problem: 'malformed' };
  if (typeof value.mac !== 'string') return { problem: 'unsigned' };
  // The MAC is checked over the manifest as publish writes it, so nothing it does not cover is read.
  const canonical = canonicalText(manifest);
  return auth.verify(recordKey, canonical, value.mac) ? { manifest } : { problem: 'forged' };
}

/** The manifest a record's text holds, whatever its signature; only `--adopt-records` reads records so. */
export function readRecordUnchecked(text: string): FileManifest | null {
  try {
    return parseManifest(JSON.parse(text));
  } catch {
    return null;
  }
}

// --- internal ---

/** Records larger than this (in UTF-16 units) are parsed only once their MAC verified: a build's own is 4.8 MB at 25,800 files. */
const PARSE_UNSIGNED_MAX_CHARS = 1024 * 1024;
/** The MAC as signedRecord appends it: the last field, hex. */
const SIGNED_TAIL = /,"mac":"([0-9a-f]{1,256})"\}$/;
const SIGNED_TAIL_MAX = 300;

/** The manifest as publish writes it (sorted keys, known fields only). */
/**
 * The canonical text of a manifest, made once per manifest object: a build's record, at 25,800 files,
 * is 4.8 MB of JSON, and a publish names, signs and checks it several times. Manifests are not changed
 * once made (mergeById returns a build id's only record as it is, and the union of several as a new one).
 */
function canonicalText(manifest: FileManifest): string {
  let text = canonicalTexts.get(manifest);
  if (text === undefined)
    canonicalTexts.set(manifest, (text = serializeManifest(canonicalManifests.has(manifest) ? manifest : canonicalManifest(manifest))));
  return text;
}

const canonicalTexts = new WeakMap<FileManifest, string>();
/** A manifest's version (recordKeyFor), the SHA-256 of its canonical text: made once, though a publish asks for two records' keys. */
const versions = new WeakMap<FileManifest, string>();
/**
 * Manifests createManifest made, in canonical form already (keys sorted, entries of three fields, no
 * prototype): their text needs no second copy sorted. Only while unchanged: a manifest is never changed
 * after it is made (mergeById copies the records it merges).
 */
const canonicalManifests = new WeakSet<FileManifest>();

function canonicalManifest(manifest: FileManifest): FileManifest {
  return createManifest(manifest.id, manifest.timestamp, Object.entries(manifest.files));
}

/** The manifest a parsed JSON value holds; null when it is not one. */
function parseManifest(value: unknown): FileManifest | null {
  if (!isRecord(value) || value.v !== 1 || typeof value.id !== 'string' || !isBuildId(value.id)) return null;
  if (typeof value.timestamp !== 'number' || !Number.isFinite(value.timestamp) || !isRecord(value.files)) return null;
  const files: Record<string, ManifestEntry> = Object.create(null) as Record<string, ManifestEntry>;
  for (const [key, entry] of Object.entries(value.files)) {
    if (!isRecord(entry) || typeof entry.size !== 'number' || typeof entry.md5 !== 'string' || typeof entry.sha256 !== 'string')
      return null;
    files[key] = Object.freeze({ size: entry.size, md5: entry.md5, sha256: entry.sha256 });
  }
  return frozen({ v: 1, id: value.id, timestamp: value.timestamp, files });
}

/** The union of the records of one build id, as mergeById describes it: a new manifest, frozen. */
function merged([first, ...later]: readonly FileManifest[]): FileManifest {
  const files: Record<string, ManifestEntry> = Object.assign(Object.create(null) as Record<string, ManifestEntry>, first!.files);
  let timestamp = first!.timestamp;
  for (const record of later) {
    // Where versions differ on a key, the newer one's entry stands.
    const newer = record.timestamp >= timestamp;
    for (const [key, entry] of Object.entries(record.files)) if (newer || !(key in files)) files[key] = entry;
    timestamp = Math.max(timestamp, record.timestamp);
  }
  return frozen({ ...first!, timestamp, files });
}

/**
 * A manifest and its file list made read-only (its entries are frozen as they are made): its canonical
 * text, version and checks are cached by object (canonicalText, recordKeyFor, remote-builds.ts
 * CheckedRecords), and mergeById hands a build id's only record on as it is, so a change to one after it
 * is made would be a record whose caches no longer match it.
 */
function frozen(manifest: FileManifest): FileManifest {
  Object.freeze(manifest.files);
  return Object.freeze(manifest);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
