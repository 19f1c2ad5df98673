import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import pLimit from 'p-limit';
import type { BuildMeta, LatestBuild } from '../../runtime/shared/contract.ts';
import { LATEST_FILE, metaFileFor } from '../../runtime/shared/paths.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { isSiteOutput } from '../output/output.ts';
import { fileStamp } from '../output/read.ts';
import type { ManifestEntry } from './manifest.ts';
import { FILES_DIR, isBuildId, policyFor, type ObjectPolicy } from './policy.ts';
import { compareText } from '../../runtime/shared/compare.ts';

/** One file of the local build, hashed, with the headers it will be stored with. */
export interface LocalFile extends ManifestEntry, ObjectPolicy {
  /** Relative to the site root with `/` separators: the key without the bucket prefix. */
  key: string;
  /** Absolute path on disk, or null for content made by publish itself (the file manifest). */
  path: string | null;
  /** The bytes, for content made by publish itself; files on disk are read when uploaded. */
  body: Uint8Array | null;
}

/** A build output folder: its latest.json, its meta and every file, hashed. */
export interface LocalBuild {
  dir: string;
  latest: LatestBuild;
  meta: BuildMeta;
  /** Every file of the folder, sorted by key; latest.json among them. */
  files: LocalFile[];
}

/**
 * The hashes of files read before, for a process that publishes the same folder again and again
 * (`site live`): a file whose inode, size, modification and change times are as they were is not read
 * again (as git's index does). Keyed by path.
 */
export type FileHashes = Map<string, { stamp: string; file: LocalFile }>;

/**
 * What changed in the folder since `hashes` last saw all of it, as the build that changed it says
 * (site paths, as `site build`'s report lists them): only these are read again, the rest is taken from
 * `hashes` without walking the folder. For the build's one writer (`site live`), right after its own update.
 */
export interface FolderChanges {
  written: readonly string[];
  removed: readonly string[];
}

/**
 * Reads and hashes a folder written by `site build`. Throws OutputMissing when it holds no complete build.
 * With `hashes`, unchanged files are not read again; with `changed` too, the folder is not even walked.
 */
export async function readLocalBuild(dir: string, hashes?: FileHashes, changed?: FolderChanges): Promise<LocalBuild> {
  if (!(await isSiteOutput(dir))) throw createBuildError(BuildErrors.OutputMissing, [dir]);
  const latest = await readJson<LatestBuild>(join(dir, LATEST_FILE));
  const meta = latest && isBuildId(latest.id) ? await readJson<BuildMeta>(join(dir, metaFileFor(latest.id))) : null;
  if (!latest || !meta || meta.id !== latest.id) throw createBuildError(BuildErrors.OutputMissing, [dir]);

  const files =
    hashes && changed && hashes.size > 0 ? await readChangedFiles(dir, hashes, changed) : await readLocalFiles(dir, undefined, hashes);
  return { dir, latest, meta, files };
}

/** Every file of `dir` but publish's own records and `skip`, hashed, sorted by key. */
export async function readLocalFiles(dir: string, skip: (key: string) => boolean = () => false, hashes?: FileHashes): Promise<LocalFile[]> {
  const limit = pLimit(16);
  const paths = (await listFiles(dir)).filter((path) => !toKey(dir, path).startsWith(`${FILES_DIR}/`) && !skip(toKey(dir, path)));
  const files = await Promise.all(
    paths.map((path) => limit(() => (hashes ? hashOnce(hashes, toKey(dir, path), path) : hashFile(toKey(dir, path), path)))),
  );
  if (hashes) {
    const present = new Set(paths);
    for (const path of hashes.keys()) if (!present.has(path)) hashes.delete(path);
  }
  return files.sort((a, b) => compareText(a.key, b.key));
}

/** A LocalFile for bytes made in memory. */
export function memoryFile(key: string, body: Uint8Array): LocalFile {
  return { key, path: null, body, size: body.byteLength, ...digests(body), ...policyFor(key) };
}

/** Hex MD5 and SHA-256 of some bytes. */
export function digests(body: Uint8Array): { md5: string; sha256: string } {
  return { md5: createHash('md5').update(body).digest('hex'), sha256: createHash('sha256').update(body).digest('hex') };
}

/** The bytes to upload for a file. */
export async function contentOf(file: LocalFile): Promise<Uint8Array> {
  if (file.body) return file.body;
  return readFile(file.path!);
}

// --- internal ---

/** The folder's files as `hashes` knows them, with `changed` applied: the written ones hashed again, the removed ones gone. */
async function readChangedFiles(dir: string, hashes: FileHashes, changed: FolderChanges): Promise<LocalFile[]> {
  const keyOf = (file: string): string => file.replace(/^\/+/, '');
  for (const file of changed.removed) hashes.delete(join(dir, keyOf(file)));
  const limit = pLimit(16);
  const written = changed.written.map(keyOf).filter((key) => !key.startsWith(`${FILES_DIR}/`));
  const fresh = await Promise.all(written.map((key) => limit(() => hashOnce(hashes, key, join(dir, key)))));
  // A file changed while it was read is not remembered, yet published as read.
  const files = new Map([...hashes.values()].map((entry) => [entry.file.key, entry.file]));
  for (const file of fresh) files.set(file.key, file);
  return [...files.values()].sort((a, b) => compareText(a.key, b.key));
}

/** The file's hashes, read again only when the file changed since `hashes` saw it. */
async function hashOnce(hashes: FileHashes, key: string, path: string): Promise<LocalFile> {
  const stamp = await fileStamp(path);
  const known = hashes.get(path);
  if (known?.stamp === stamp && known.file.key === key) return known.file;
  const file = await hashFile(key, path);
  // Changed while it was read: not remembered, so the next read hashes it again.
  if ((await fileStamp(path)) === stamp) hashes.set(path, { stamp, file });
  return file;
}

async function hashFile(key: string, path: string): Promise<LocalFile> {
  // Streamed, so large media never sit in memory all at once.
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    md5.update(chunk);
    sha256.update(chunk);
    size += chunk.byteLength;
  }
  return { key, path, body: null, size, md5: md5.digest('hex'), sha256: sha256.digest('hex'), ...policyFor(key) };
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

function toKey(dir: string, path: string): string {
  return relative(dir, path).split(sep).join('/');
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T;
  } catch {
    return null;
  }
}
