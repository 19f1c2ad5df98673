import { existsSync } from 'node:fs';
import { lutimes, mkdir, mkdtemp, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MEMORY_DIR,
  MIN_AVAILABLE_MEMORY,
  MIN_FREE_BYTES,
  scratchDir,
  STALE_AFTER_MS,
  sweepStaleRuns,
  TMPFS_MAGIC,
} from '../../../scripts/scratch-dir.js';

/** Where `npm test` puts its temporary folders (scripts/scratch-dir.js). */
const EXT4 = 0xef53;
const GIB = 1024 ** 3;
const statfsOf = (type: number, freeBytes: number) => (path: string) => {
  expect(path).toBe(MEMORY_DIR);
  return { type, bsize: 4096, bavail: Math.floor(freeBytes / 4096) };
};
/** A machine with plenty of memory available. */
const roomy = { env: {}, available: () => 20 * GIB, fallback: '/tmp' };

describe('the test runs’ temporary folder', () => {
  it('is /dev/shm when it is a tmpfs with room for the suite and the machine has memory to spare', () => {
    expect(scratchDir({ ...roomy, statfs: statfsOf(TMPFS_MAGIC, 24 * GIB) })).toEqual({
      dir: '/dev/shm',
      reason: 'in memory (tmpfs, 24.0 GiB free)',
    });
    expect(scratchDir({ ...roomy, statfs: statfsOf(TMPFS_MAGIC, MIN_FREE_BYTES), available: () => MIN_AVAILABLE_MEMORY }).dir).toBe(
      '/dev/shm',
    );
  });

  it("is the system's temporary folder when /dev/shm is a container's small one, on disk, or missing", () => {
    // Docker's default /dev/shm: 64 MiB.
    expect(scratchDir({ ...roomy, statfs: statfsOf(TMPFS_MAGIC, 64 * 1024 ** 2) })).toEqual({
      dir: '/tmp',
      reason: '/dev/shm has 0.1 GiB free, under 6.0',
    });
    expect(scratchDir({ ...roomy, statfs: statfsOf(TMPFS_MAGIC, MIN_FREE_BYTES - 4096) }).dir).toBe('/tmp');
    expect(scratchDir({ ...roomy, statfs: statfsOf(EXT4, 100 * GIB) })).toEqual({
      dir: '/tmp',
      reason: '/dev/shm is not in memory (tmpfs)',
    });
    const missing = (): never => {
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };
    expect(scratchDir({ ...roomy, statfs: missing })).toEqual({ dir: '/tmp', reason: '/dev/shm is missing' });
  });

  it('is on disk when the machine has too little memory available, however large /dev/shm says it is', () => {
    // A tmpfs's limit is often the machine's whole memory: its free space says nothing of what else needs memory.
    expect(scratchDir({ ...roomy, statfs: statfsOf(TMPFS_MAGIC, 24 * GIB), available: () => 8 * GIB })).toEqual({
      dir: '/tmp',
      reason: 'the machine has 8.0 GiB of memory available, under 12.0',
    });
  });

  it('is TEST_TMPDIR when set, whatever /dev/shm is', () => {
    expect(scratchDir({ ...roomy, env: { TEST_TMPDIR: '/var/scratch' }, statfs: statfsOf(TMPFS_MAGIC, 24 * GIB) })).toEqual({
      dir: '/var/scratch',
      reason: 'TEST_TMPDIR',
    });
  });

  it('is swept of the folders of runs stopped long ago, and of nothing else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-scratch-'));
    const now = Date.now();
    const folder = async (name: string, ageMs: number): Promise<string> => {
      const path = join(dir, name);
      await mkdir(path);
      await writeFile(join(path, 'file'), 'x');
      await utimes(path, (now - ageMs) / 1000, (now - ageMs) / 1000);
      return path;
    };
    const old = [await folder('site-vitest-abc123', STALE_AFTER_MS + 60_000), await folder('site-e2e-run-def456', 2 * STALE_AFTER_MS)];
    const oldShared = await folder('site-test-shared-ghi789', STALE_AFTER_MS + 1);
    const running = await folder('site-vitest-running', 60_000);
    const other = await folder('someone-elses-folder', 3 * STALE_AFTER_MS);
    await writeFile(join(dir, 'site-vitest-a-file'), 'not a folder');
    await utimes(join(dir, 'site-vitest-a-file'), 0, 0);
    // A link named like a run's folder, to a folder that is not one: neither is removed.
    const target = await folder('kept-elsewhere', 3 * STALE_AFTER_MS);
    await symlink(target, join(dir, 'site-vitest-link'));
    await lutimes(join(dir, 'site-vitest-link'), 0, 0);
    expect(sweepStaleRuns(dir, now).sort()).toEqual([...old, oldShared].sort());
    for (const path of [...old, oldShared]) expect(existsSync(path)).toBe(false);
    for (const path of [running, other, target, join(dir, 'site-vitest-link'), join(dir, 'site-vitest-a-file')])
      expect(existsSync(path)).toBe(true);
    expect(sweepStaleRuns(join(dir, 'missing'), now)).toEqual([]);
  });
});
