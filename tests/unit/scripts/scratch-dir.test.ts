import { describe, expect, it } from 'vitest';
import { MEMORY_DIR, MIN_FREE_BYTES, scratchDir, TMPFS_MAGIC } from '../../../scripts/scratch-dir.js';

/** Where `npm test` puts its temporary folders (scripts/scratch-dir.js). */
const EXT4 = 0xef53;
const statfsOf = (type: number, freeBytes: number) => (path: string) => {
  expect(path).toBe(MEMORY_DIR);
  return { type, bsize: 4096, bavail: Math.floor(freeBytes / 4096) };
};

describe('the test runs’ temporary folder', () => {
  it('is /dev/shm when it is a tmpfs with room for the suite', () => {
    expect(scratchDir({ env: {}, statfs: statfsOf(TMPFS_MAGIC, 24 * 1024 ** 3), fallback: '/tmp' })).toEqual({
      dir: '/dev/shm',
      reason: 'in memory (tmpfs, 24.0 GiB free)',
    });
  });

  it("is the system's temporary folder when /dev/shm is a container's small one, on disk, or missing", () => {
    // Docker's default /dev/shm: 64 MiB.
    expect(scratchDir({ env: {}, statfs: statfsOf(TMPFS_MAGIC, 64 * 1024 ** 2), fallback: '/tmp' })).toEqual({
      dir: '/tmp',
      reason: '/dev/shm has 0.1 GiB free, under 6.0',
    });
    expect(scratchDir({ env: {}, statfs: statfsOf(TMPFS_MAGIC, MIN_FREE_BYTES - 4096), fallback: '/tmp' }).dir).toBe('/tmp');
    expect(scratchDir({ env: {}, statfs: statfsOf(TMPFS_MAGIC, MIN_FREE_BYTES), fallback: '/tmp' }).dir).toBe('/dev/shm');
    expect(scratchDir({ env: {}, statfs: statfsOf(EXT4, 100 * 1024 ** 3), fallback: '/tmp' })).toEqual({
      dir: '/tmp',
      reason: '/dev/shm is not in memory (tmpfs)',
    });
    const missing = (): never => {
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };
    expect(scratchDir({ env: {}, statfs: missing, fallback: '/tmp' })).toEqual({ dir: '/tmp', reason: '/dev/shm is missing' });
  });

  it('is TEST_TMPDIR when set, whatever /dev/shm is', () => {
    expect(scratchDir({ env: { TEST_TMPDIR: '/var/scratch' }, statfs: statfsOf(TMPFS_MAGIC, 24 * 1024 ** 3), fallback: '/tmp' })).toEqual({
      dir: '/var/scratch',
      reason: 'TEST_TMPDIR',
    });
  });
});
