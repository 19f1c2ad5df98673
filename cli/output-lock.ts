import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rm, stat } from 'node:fs/promises';
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
  // Two tries: the second follows the take-over of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await createExclusive(file, JSON.stringify(me), outDir)) return { file, release: () => releaseLock(file, me.token) };
    const owner = await readOwner(file);
    if (owner && owner.host === me.host && !isAlive(owner.pid)) {
      if (await takeOver(file, owner, outDir)) continue;
      throw createBuildError(BuildErrors.OutputLocked, [outDir, `another build is taking over the stale lock ${file}`]);
    }
    const who = owner ? `process ${owner.pid} on ${owner.host}, started ${owner.startedAt}; lock file ${file}` : `lock file ${file}`;
    if (owner && owner.host !== me.host) throw createBuildError(BuildErrors.OutputLocked, [outDir, `${who}; this machine cannot tell whether that build still runs: if it does not, delete ${file}`]);
    throw createBuildError(BuildErrors.OutputLocked, [outDir, who]);
  }
  throw createBuildError(BuildErrors.OutputLocked, [outDir, `lock file ${file}`]);
}

/**
 * Removes a stale lock so that exactly one of the builds that found it can create its own. Take-overs
 * are serialised by a second lock, `{file}.takeover`, created exclusively: its holder checks again
 * that the lock is still the stale one it read (another build may have taken it over and created a
 * fresh lock meanwhile) before removing it. Without that, two builds could each remove the other's
 * fresh lock and both hold one. A take-over lock left by a build killed in those few milliseconds is
 * cleared once it is older than TAKEOVER_STALE_MS.
 */
async function takeOver(file: string, stale: LockOwner, outDir: string): Promise<boolean> {
  const guard = `${file}.takeover`;
  if (!(await createExclusive(guard, String(process.pid), outDir))) {
    const age = await stat(guard).then((info) => Date.now() - info.mtimeMs, () => 0);
    if (age > TAKEOVER_STALE_MS) await rm(guard, { force: true });
    return false;
  }
  try {
    const now = await readOwner(file);
    if (now?.token === stale.token) await rm(file, { force: true });
    return true;
  } finally {
    await rm(guard, { force: true });
  }
}

/** A take-over lock older than this was left by a killed build. */
const TAKEOVER_STALE_MS = 10_000;

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
