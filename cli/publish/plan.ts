import pLimit from 'p-limit';
import type { LocalFile } from './local.ts';
import type { ManifestEntry } from './manifest.ts';
import { stageIndex } from './policy.ts';
import type { RemoteObject } from './s3-store.ts';
import { compareText } from '../../runtime/shared/compare.ts';

/** Why a file is uploaded. */
export type UploadReason = 'new' | 'changed';

/** One file to upload, and why. */
export interface PlannedUpload {
  file: LocalFile;
  reason: UploadReason;
}

/** The outcome of comparing a build with the bucket. */
export interface UploadPlan {
  /** In publish order: by stage, then by key. */
  uploads: PlannedUpload[];
  /** Files whose bytes the bucket already holds. */
  unchanged: LocalFile[];
}

/** What a listing says about one key, before any extra request. */
export type Verdict = UploadReason | 'unchanged' | 'check';

/**
 * Compares a local file with the listed object. A single-part upload's ETag is the hex MD5 of its
 * bytes, so equal size and ETag mean equal content. An ETag of another form (multipart `…-N`, or a
 * store's own scheme) proves nothing either way: 'check' asks for the SHA-256 publish stores in the
 * object's metadata. A 32-hex ETag that differs is taken as changed: re-uploading is always safe,
 * skipping never is without proof.
 */
export function compareWithRemote(local: ManifestEntry, remote: RemoteObject | undefined): Verdict {
  if (!remote) return 'new';
  if (remote.size === local.size && remote.etag.toLowerCase() === local.md5) return 'unchanged';
  if (remote.size !== local.size || /^[0-9a-f]{32}$/i.test(remote.etag)) return 'changed';
  return 'check';
}

/** Decides, for every local file, whether it must be uploaded; `headSha256` settles the 'check' cases. */
export async function planUploads(
  files: readonly LocalFile[],
  remote: ReadonlyMap<string, RemoteObject>,
  headSha256: (key: string) => Promise<string | null>,
  concurrency: number,
): Promise<UploadPlan> {
  // Decided from the listing where it can be (nearly every file of an update); only the rest are asked
  // for, at most `concurrency` at once. A task for each of 25,800 files was about 0.08 s of an update.
  const verdicts: Verdict[] = files.map((file) => compareWithRemote(file, remote.get(file.key)));
  const limit = pLimit(concurrency);
  const heads: Promise<void>[] = [];
  for (const [i, file] of files.entries()) {
    if (verdicts[i] !== 'check') continue;
    const settle = async (): Promise<void> => {
      verdicts[i] = (await headSha256(file.key)) === file.sha256 ? 'unchanged' : 'changed';
    };
    heads.push(limit(settle));
  }
  await Promise.all(heads);
  const uploads: PlannedUpload[] = [];
  const unchanged: LocalFile[] = [];
  files.forEach((file, i) => {
    const verdict = verdicts[i]!;
    if (verdict === 'unchanged') unchanged.push(file);
    // Every 'check' was settled above; were one not, the file is uploaded, never taken as unchanged.
    else uploads.push({ file, reason: verdict === 'check' ? 'changed' : verdict });
  });
  uploads.sort((a, b) => stageIndex(a.file.stage) - stageIndex(b.file.stage) || compareText(a.file.key, b.file.key));
  return { uploads, unchanged };
}

/** Total bytes of some uploads. */
export function bytesOf(uploads: readonly PlannedUpload[]): number {
  return uploads.reduce((sum, u) => sum + u.file.size, 0);
}
