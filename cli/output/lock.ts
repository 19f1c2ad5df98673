import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { crashStep } from '../config/environment.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';

/**
 * One build at a time per output folder: two builds swapping into one folder could interleave their
 * renames and leave a mix of both, or remove each other's staging folder. The lock is a file beside
 * the output (`{outDir}.lock`), created exclusively; a lock whose process has gone (a build that was
 * killed) is taken over, so a crash never blocks the next build.
 */

export interface OutputLock {
  /** The lock file. */
  readonly file: string;
  /**
   * A leased lock (`leaseMs`): dates it anew, when it is still this process's; false when it is not
   * (another process took it over once the lease ran out): then this one must stop writing.
   */
  renew(): Promise<boolean>;
  /** Removes the lock if it is still this build's; safe to call more than once. */
  release(): Promise<void>;
}

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  token: string;
  /** A leased lock: when its holder last dated it (ISO). */
  renewedAt?: string;
}

/**
 * Takes the lock of `outDir` or fails with OutputLocked, naming the build that holds it. `for: 'live'`
 * is `site live`'s lock of the folder it keeps up to date (`{outDir}.live.lock`, held while it runs,
 * beside the builds' own), failing with LiveLocked.
 */
export async function lockOutput(
  outDir: string,
  {
    isAlive = isProcessAlive,
    now = () => new Date(),
    for: purpose = 'build',
    leaseMs,
  }: {
    isAlive?: (pid: number) => boolean;
    now?: () => Date;
    for?: 'build' | 'live';
    /**
     * A lease: the holder renews the lock (`renew()`) well within this many milliseconds, and a lock not
     * renewed for longer is stale whatever machine holds it. For a process that runs for days and may be
     * restarted on another machine (a Kubernetes pod rescheduled), where a dead holder's host is not
     * this one and its pid says nothing. @default none: a lock is stale only when its holder is gone from this machine
     */
    leaseMs?: number;
  } = {},
): Promise<OutputLock> {
  const file = purpose === 'live' ? `${outDir}.live.lock` : `${outDir}.lock`;
  const locked = purpose === 'live' ? BuildErrors.LiveLocked : BuildErrors.OutputLocked;
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: now().toISOString(), token: randomBytes(8).toString('hex') };
  try {
    await mkdir(dirname(file), { recursive: true });
  } catch (cause) {
    throw createBuildError(BuildErrors.OutputNotWritable, [dirname(outDir), (cause as Error).message], { cause });
  }
  // Two tries: the second follows the take-over of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await createExclusive(file, JSON.stringify(me), outDir)) {
      // Claims left by builds killed while taking over an earlier lock: that lock is gone (this one
      // could be created), so they no longer mean anything.
      releaseOnExit(file, me.token);
      await removeClaims(file);
      return { file, renew: () => renewLock(file, me, now), release: () => releaseLock(file, me.token) };
    }
    const owner = await readOwner(file);
    const expired = leaseMs !== undefined && owner !== null && leaseExpired(owner, leaseMs, now());
    if (owner && ((owner.host === me.host && !isAlive(owner.pid)) || expired)) {
      const busy = await takeOver(file, owner, me, outDir, isAlive);
      if (busy === null) continue;
      throw createBuildError(locked, [
        outDir,
        `another build is taking over the stale lock ${file} (its claim ${busy}; if no build runs, delete both files)`,
      ]);
    }
    const who = owner ? `process ${owner.pid} on ${owner.host}, started ${owner.startedAt}; lock file ${file}` : `lock file ${file}`;
    if (owner && leaseMs !== undefined)
      throw createBuildError(locked, [
        outDir,
        `${who}, renewed ${owner.renewedAt ?? owner.startedAt}; it is taken over once not renewed for ${Math.round(leaseMs / 1000)} s`,
      ]);
    if (owner && owner.host !== me.host)
      throw createBuildError(locked, [
        outDir,
        `${who}; this machine cannot tell whether that build still runs: if it does not, delete ${file}`,
      ]);
    throw createBuildError(locked, [outDir, who]);
  }
  throw createBuildError(locked, [outDir, `lock file ${file}`]);
}

/**
 * Removes the stale lock `stale` so that exactly one of the builds that found it can create its own.
 * The right to remove it is a claim file, `{file}.takeover-{stale token}`, created exclusively: only
 * its creator removes the lock, and only while it is still `stale` (tokens are never reused, so once
 * gone it never comes back, and nobody else removes it: the check and the removal cannot be split by
 * another take-over). A claim whose holder was killed on this machine before it finished is succeeded
 * by a claim named after that holder's token, created exclusively in turn; a claim of a live build
 * means it is taking over right now: returns that claim's file then, null when the lock is taken over.
 */
async function takeOver(
  file: string,
  stale: LockOwner,
  me: LockOwner,
  outDir: string,
  isAlive: (pid: number) => boolean,
): Promise<string | null> {
  for (let claim = claimFor(file, stale.token); ; ) {
    if (await createExclusive(claim, JSON.stringify(me), outDir)) {
      try {
        crashPoint('lock:takeover');
        if ((await readOwner(file))?.token === stale.token) await rm(file, { force: true });
        return null;
      } finally {
        await rm(claim, { force: true });
      }
    }
    const holder = await readOwner(claim);
    if (!holder || holder.host !== me.host || isAlive(holder.pid)) return claim;
    claim = claimFor(file, holder.token);
  }
}

/**
 * Test hook: `SITE_CRASH_AT=<step>` kills the process at that step (`lock:takeover`, and the swap's
 * steps in swap.ts), as a power cut or `kill -9` would, so tests can show each is recoverable.
 */
export function crashPoint(step: string): void {
  if (crashStep() === step) process.kill(process.pid, 'SIGKILL');
}

// --- internal ---

/**
 * True when the file was created by this call, whole; false when it already existed. Written beside
 * its name and linked into place, so that nobody ever reads a lock or a claim half written (a build
 * killed between creating and writing it would leave one that no one could read or take over).
 */
async function createExclusive(file: string, content: string, outDir: string): Promise<boolean> {
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, content, { flag: 'wx' });
    try {
      await link(temp, file);
    } catch (cause) {
      // A file system without hard links: created exclusively, then written.
      if (!NO_LINKS.has((cause as NodeJS.ErrnoException).code ?? '')) throw cause;
      await writeFile(file, content, { flag: 'wx' });
    }
    return true;
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw createBuildError(BuildErrors.OutputNotWritable, [dirname(outDir), (cause as Error).message], { cause });
  } finally {
    await rm(temp, { force: true });
  }
}

const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

function claimFor(file: string, token: string): string {
  return `${file}.takeover-${token}`;
}

async function removeClaims(file: string): Promise<void> {
  const prefix = `${basename(file)}.takeover-`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  // Claims only: a claim being created right now is first written beside its name
  // (`….takeover-{token}.{random}.tmp`, createExclusive), and removing that would fail its build.
  const claims = names.filter((name) => name.startsWith(prefix) && TOKEN.test(name.slice(prefix.length)));
  await Promise.all(claims.map((name) => rm(join(dirname(file), name), { force: true })));
}

/** A lock's token (ours: randomBytes as hex): a claim's file is named after it, so no dot, no slash. */
const TOKEN = /^[\w-]+$/;

/** The lock's owner, or null while it is being written (or was not written by this tool). */
async function readOwner(file: string): Promise<LockOwner | null> {
  try {
    const owner = JSON.parse(await readFile(file, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' && typeof owner.token === 'string' && TOKEN.test(owner.token)
      ? (owner as LockOwner)
      : null;
  } catch {
    return null;
  }
}

/**
 * A lease not renewed for `leaseMs` (its renewal, else its start): its holder stopped, or hangs. One
 * dated further ahead than a lease lasts (a clock far ahead, a planted file) would otherwise never
 * expire: it counts as expired too.
 */
function leaseExpired(owner: LockOwner, leaseMs: number, now: Date): boolean {
  const at = Date.parse(owner.renewedAt ?? owner.startedAt);
  return !Number.isFinite(at) || Math.abs(now.getTime() - at) > leaseMs;
}

/** Dates a leased lock anew while it is `me`'s, written beside it and renamed over it, so no reader sees it half written. */
async function renewLock(file: string, me: LockOwner, now: () => Date): Promise<boolean> {
  if ((await readOwner(file))?.token !== me.token) return false;
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, JSON.stringify({ ...me, renewedAt: now().toISOString() }), { flag: 'wx' });
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
  }
  return true;
}

async function releaseLock(file: string, token: string): Promise<void> {
  const owner = await readOwner(file);
  if (owner?.token === token) await rm(file, { force: true });
  if (held.get(file) === token) held.delete(file);
}

/** The locks this process holds and has not released: each file, with its token. */
const held = new Map<string, string>();

/**
 * Removes `file` when the process exits still holding it (process.exit, an uncaught error), if it is
 * still this process's: a build ended that way (the pipe of the `site live` that started it closed, say:
 * cli/commands/build.ts) would otherwise leave a lock that only a later build on this machine takes over,
 * and that one on another machine sharing the folder, or after the pid was reused, must be deleted by
 * hand. A process killed outright (SIGKILL, a power cut) runs no hook: its lock is taken over as stale.
 */
function releaseOnExit(file: string, token: string): void {
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => {
      for (const [lock, mine] of held) {
        try {
          if ((JSON.parse(readFileSync(lock, 'utf8')) as Partial<LockOwner>).token === mine) unlinkSync(lock);
        } catch {
          // Gone, or not readable: nothing of ours to remove.
        }
      }
    });
  }
  held.set(file, token);
}
let exitHooked = false;

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
