import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { BuildErrors, createBuildError } from './errors.ts';

/**
 * One build at a time per output folder: two builds swapping into one folder could interleave their
 * renames and leave a mix of both, or remove each other's staging folder. The lock is a file beside
 * the output (`{outDir}.lock`), created exclusively; a lock whose process has gone (a build that was
 * killed) is taken over, so a crash never blocks the next build.
 */

export interface OutputLock {
  /** The lock file. */
  readonly file: string;
  /** Removes the lock if it is still this build's; safe to call more than once. */
  release(): Promise<void>;
}

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  token: string;
}

/** Takes the lock of `outDir` or fails with OutputLocked, naming the build that holds it. */
export async function lockOutput(outDir: string, { isAlive = isProcessAlive, now = () => new Date() }: { isAlive?: (pid: number) => boolean; now?: () => Date } = {}): Promise<OutputLock> {
  const file = `${outDir}.lock`;
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: now().toISOString(), token: randomBytes(8).toString('hex') };
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (cause) {
    throw createBuildError(BuildErrors.OutputNotWritable, [dirname(outDir), (cause as Error).message], { cause });
  }
  // Two tries: the second follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await createExclusive(file, JSON.stringify(me), outDir)) return { file, release: () => releaseLock(file, me.token) };
    const owner = await readOwner(file);
    if (owner && owner.host === me.host && !isAlive(owner.pid)) {
      // Renamed away rather than deleted: of two builds finding the same stale lock, only one moves it.
      await rename(file, `${file}.stale-${me.token}`).then(
        () => rm(`${file}.stale-${me.token}`, { force: true }),
        () => undefined,
      );
      continue;
    }
    const who = owner ? `process ${owner.pid} on ${owner.host}, started ${owner.startedAt}; lock file ${file}` : `lock file ${file}`;
    throw createBuildError(BuildErrors.OutputLocked, [outDir, who]);
  }
  throw createBuildError(BuildErrors.OutputLocked, [outDir, `lock file ${file}`]);
}

// --- internal ---

/** True when the file was created by this call; false when it already existed. */
async function createExclusive(file: string, content: string, outDir: string): Promise<boolean> {
  try {
    const handle = await open(file, 'wx');
    try {
      await handle.writeFile(content);
    } finally {
      await handle.close();
    }
    return true;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw createBuildError(BuildErrors.OutputNotWritable, [dirname(outDir), (cause as Error).message], { cause });
  }
}

/** The lock's owner, or null while it is being written (or was not written by this tool). */
async function readOwner(file: string): Promise<LockOwner | null> {
  try {
    const owner = JSON.parse(await readFile(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string' ? (owner as LockOwner) : null;
  } catch {
    return null;
  }
}

async function releaseLock(file: string, token: string): Promise<void> {
  const owner = await readOwner(file);
  if (owner?.token === token) await rm(file, { force: true });
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
