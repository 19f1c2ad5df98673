import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isBuildError } from '../../../../cli/errors/errors.ts';
import { checkPageCount, commitStagingDir, createStagingDir, discardStagingDir } from '../../../../cli/output/output.ts';
import { lockOutput } from '../../../../cli/output/lock.ts';
import { rejectionOf } from '../../../helpers/rejection.ts';

async function outDir(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'site-guards-')), 'site');
}

const rejection = (promise: Promise<unknown>): Promise<{ code: string; message: string }> => rejectionOf(promise, isBuildError);

/** A previous build in `dir` with `pages` prerendered paths. */
async function previousBuild(dir: string, pages: number): Promise<void> {
  await mkdir(join(dir, '_assets/builds/meta'), { recursive: true });
  await writeFile(join(dir, '_assets/builds/latest.json'), '{"id":"old","timestamp":1}');
  await writeFile(
    join(dir, '_assets/builds/meta/old.json'),
    JSON.stringify({ id: 'old', timestamp: 1, matcher: {}, prerendered: Array.from({ length: pages }, (_, i) => `/p${i}`), chunks: {} }),
  );
}

describe('the output lock', () => {
  it('lets one build at a time hold an output folder, naming the holder to the other', async () => {
    const dir = await outDir();
    const first = await lockOutput(dir);
    const error = await rejection(lockOutput(dir));
    expect(error.code).toBe('OutputLocked');
    expect(error.message).toContain(`Another build (process ${process.pid} on `);
    expect(error.message).toContain(`lock file ${dir}.lock`);
    await first.release();
    const second = await lockOutput(dir);
    await second.release();
    expect(await readdir(join(dir, '..'))).toEqual([]);
  });

  it('is released when its process exits without releasing it (process.exit, an uncaught error), not when killed outright', async () => {
    const lockModule = pathToFileURL(join(import.meta.dirname, '../../../../cli/output/lock.ts')).href;
    // A process that takes the lock, then ends: with process.exit, with an uncaught error, or with SIGKILL.
    const holdAndEnd = (dir: string, how: string): number | null =>
      spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `const { lockOutput } = await import(${JSON.stringify(lockModule)}); await lockOutput(${JSON.stringify(dir)}); ${how}`,
        ],
        { encoding: 'utf8' },
      ).status;
    const exited = await outDir();
    expect(holdAndEnd(exited, 'process.exit(3);')).toBe(3);
    expect(existsSync(`${exited}.lock`)).toBe(false);
    const threw = await outDir();
    expect(holdAndEnd(threw, "setTimeout(() => { throw new Error('uncaught'); });")).toBe(1);
    expect(existsSync(`${threw}.lock`)).toBe(false);
    const killed = await outDir();
    expect(holdAndEnd(killed, "process.kill(process.pid, 'SIGKILL');")).toBe(null);
    expect(existsSync(`${killed}.lock`)).toBe(true);
    // Taken over by the next build here, as stale.
    await (await lockOutput(killed)).release();
  });

  it('takes over the lock of a build whose process is gone', async () => {
    const dir = await outDir();
    await lockOutput(dir, { isAlive: () => true });
    const taken = await lockOutput(dir, { isAlive: () => false });
    expect(JSON.parse(await readFile(taken.file, 'utf8'))).toMatchObject({ pid: process.pid });
    await taken.release();
    expect(await readdir(join(dir, '..'))).toEqual([]);
  });

  it("site live's lease: held while renewed, taken over from any machine once not renewed for the lease, and then the old holder's renewal fails", async () => {
    const dir = await outDir();
    let clock = Date.parse('2026-11-28T12:00:00Z');
    const now = (): Date => new Date(clock);
    const holder = await lockOutput(dir, { for: 'live', leaseMs: 30_000, now, isAlive: () => true });
    expect(holder.file).toBe(`${dir}.live.lock`);
    // Written as by a process on another machine: its pid means nothing here.
    const owner = JSON.parse(await readFile(holder.file, 'utf8')) as Record<string, unknown>;
    await writeFile(holder.file, JSON.stringify({ ...owner, host: `not-${hostname()}` }));
    clock += 25_000;
    const early = await rejection(lockOutput(dir, { for: 'live', leaseMs: 30_000, now, isAlive: () => true }));
    expect(early.code).toBe('LiveLocked');
    expect(early.message).toContain('it is taken over once not renewed for 30 s');
    // Renewed: the lease runs from now again.
    expect(await holder.renew()).toBe(true);
    clock += 25_000;
    expect((await rejection(lockOutput(dir, { for: 'live', leaseMs: 30_000, now, isAlive: () => true }))).code).toBe('LiveLocked');
    clock += 10_000;
    const taken = await lockOutput(dir, { for: 'live', leaseMs: 30_000, now, isAlive: () => true });
    expect(await holder.renew()).toBe(false);
    // The old holder's release leaves the new holder's lock alone.
    await holder.release();
    expect(await taken.renew()).toBe(true);
    await taken.release();
    expect(await readdir(join(dir, '..'))).toEqual([]);
  });

  it("site live's lease dated further ahead than it lasts (a clock far ahead, a planted file) is taken over", async () => {
    const dir = await outDir();
    const now = (): Date => new Date('2026-11-28T12:00:00Z');
    const holder = await lockOutput(dir, { for: 'live', leaseMs: 30_000, now, isAlive: () => true });
    const owner = JSON.parse(await readFile(holder.file, 'utf8')) as Record<string, unknown>;
    // Within the lease ahead (a clock a little fast): still held.
    await writeFile(holder.file, JSON.stringify({ ...owner, host: `not-${hostname()}`, renewedAt: '2026-11-28T12:00:20Z' }));
    expect((await rejection(lockOutput(dir, { for: 'live', leaseMs: 30_000, now, isAlive: () => true }))).code).toBe('LiveLocked');
    await writeFile(holder.file, JSON.stringify({ ...owner, host: `not-${hostname()}`, renewedAt: '2999-01-01T00:00:00Z' }));
    const taken = await lockOutput(dir, { for: 'live', leaseMs: 30_000, now, isAlive: () => true });
    await taken.release();
  });

  it('keeps a build lock from another machine without a lease, however old', async () => {
    const dir = await outDir();
    const holder = await lockOutput(dir, { isAlive: () => true, now: () => new Date('2020-01-01T00:00:00Z') });
    const owner = JSON.parse(await readFile(holder.file, 'utf8')) as Record<string, unknown>;
    await writeFile(holder.file, JSON.stringify({ ...owner, host: `not-${hostname()}` }));
    expect((await rejection(lockOutput(dir, { isAlive: () => false }))).code).toBe('OutputLocked');
    await holder.release();
  });

  it('lets exactly one of many builds take over the same stale lock, however their steps interleave', async () => {
    for (let round = 0; round < 25; round++) {
      const dir = await outDir();
      await mkdir(join(dir, '..'), { recursive: true });
      // A lock left by a build on this machine whose process is gone.
      await writeFile(`${dir}.lock`, JSON.stringify({ pid: 999_999_999, host: hostname(), startedAt: 'then', token: 'stale' }));
      const isAlive = (pid: number): boolean => pid !== 999_999_999;
      const attempts = await Promise.allSettled(Array.from({ length: 6 }, () => lockOutput(dir, { isAlive })));
      const held = attempts.filter((a) => a.status === 'fulfilled');
      expect(held, `round ${round}`).toHaveLength(1);
      for (const failed of attempts.filter((a) => a.status === 'rejected'))
        expect((failed.reason as { code: string }).code).toBe('OutputLocked');
      await (held[0] as PromiseFulfilledResult<Awaited<ReturnType<typeof lockOutput>>>).value.release();
      expect(await readdir(join(dir, '..'))).toEqual([]);
    }
  });

  it('succeeds a take-over claim whose build was killed, and waits for one whose build is alive', async () => {
    const dir = await outDir();
    await mkdir(join(dir, '..'), { recursive: true });
    const stale = { pid: 999_999_999, host: hostname(), startedAt: 'then', token: 'stale' };
    await writeFile(`${dir}.lock`, JSON.stringify(stale));
    // A build that claimed the take-over and is still at it: nobody else removes the lock meanwhile.
    await writeFile(`${dir}.lock.takeover-stale`, JSON.stringify({ ...stale, pid: 999_999_998, token: 'claimer' }));
    const busy = await rejection(lockOutput(dir, { isAlive: (pid) => pid !== 999_999_999 }));
    expect(busy.code).toBe('OutputLocked');
    expect(busy.message).toContain('another build is taking over');
    expect(JSON.parse(await readFile(`${dir}.lock`, 'utf8'))).toMatchObject({ token: 'stale' });
    // The same claim, its build killed: the next build takes over, and no claim is left behind.
    const taken = await lockOutput(dir, { isAlive: () => false });
    expect(JSON.parse(await readFile(taken.file, 'utf8'))).toMatchObject({ pid: process.pid });
    expect(await readdir(join(dir, '..'))).toEqual(['site.lock']);
    await taken.release();
  });

  it('reports a lock held on another machine, with how to clear it, rather than taking it over', async () => {
    const dir = await outDir();
    await mkdir(join(dir, '..'), { recursive: true });
    await writeFile(`${dir}.lock`, JSON.stringify({ pid: 1, host: 'ci-runner-7', startedAt: '2026-11-24T10:00:00.000Z', token: 'other' }));
    const error = await rejection(lockOutput(dir, { isAlive: () => false }));
    expect(error.code).toBe('OutputLocked');
    expect(error.message).toContain('process 1 on ci-runner-7');
    expect(error.message).toContain(`if it does not, delete ${dir}.lock`);
  });

  it('never releases a lock that another build has since taken over', async () => {
    const dir = await outDir();
    const stale = await lockOutput(dir);
    const current = await lockOutput(dir, { isAlive: () => false });
    await stale.release();
    expect(await readdir(join(dir, '..'))).toEqual(['site.lock']);
    await current.release();
  });

  it('is held from the staging folder until the swap, and also released when the build is discarded', async () => {
    const dir = await outDir();
    const staging = await createStagingDir(dir);
    expect((await rejection(createStagingDir(dir))).code).toBe('OutputLocked');
    await mkdir(join(staging, '_assets/builds'), { recursive: true });
    await writeFile(join(staging, '_assets/builds/latest.json'), '{"id":"new","timestamp":2}');
    await commitStagingDir(staging, dir);
    expect(await readdir(join(dir, '..'))).toEqual(['site']);
    const again = await createStagingDir(dir);
    await discardStagingDir(again);
    expect(await readdir(join(dir, '..'))).toEqual(['site']);
  });

  it('removes the staging folder a killed build left behind', async () => {
    const dir = await outDir();
    await mkdir(join(dir, '..', '.site.staging-99999-dead'), { recursive: true });
    const staging = await createStagingDir(dir);
    expect((await readdir(join(dir, '..'))).filter((n) => n.startsWith('.site.staging-'))).toEqual([
      staging.slice(staging.lastIndexOf('/') + 1),
    ]);
    await discardStagingDir(staging);
  });
});

describe('the page-count guard', () => {
  it('fails when the page count drops by more than 20%, naming both counts', async () => {
    const dir = await outDir();
    await previousBuild(dir, 100);
    const error = await rejection(checkPageCount(dir, 79, false));
    expect(error.code).toBe('PageCountDropped');
    expect(error.message).toBe(
      `This build has 79 pages, 21% fewer than the 100 of the previous build in ${dir}; the previous output was kept unchanged.`,
    );
  });

  it('accepts a drop of exactly 20%, growth, a first build, and any drop with allowShrink', async () => {
    const dir = await outDir();
    await expect(checkPageCount(dir, 1, false)).resolves.toBeUndefined();
    await previousBuild(dir, 100);
    await expect(checkPageCount(dir, 80, false)).resolves.toBeUndefined();
    await expect(checkPageCount(dir, 300, false)).resolves.toBeUndefined();
    await expect(checkPageCount(dir, 0, true)).resolves.toBeUndefined();
  });
});
