import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../../cli/output/write.ts';

describe('writeFileAtomic, the one way the tool replaces a file', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'write-atomic-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('writes whole content or what a fill function writes, creating the folder', async () => {
    await writeFileAtomic(join(dir, 'a/b.txt'), 'one');
    await writeFileAtomic(join(dir, 'a/c.txt'), (temp) => writeFile(temp, 'streamed'));
    expect(await readFile(join(dir, 'a/b.txt'), 'utf8')).toBe('one');
    expect(await readFile(join(dir, 'a/c.txt'), 'utf8')).toBe('streamed');
    expect((await readdir(join(dir, 'a'))).sort()).toEqual(['b.txt', 'c.txt']);
  });

  it('keeps the previous content whole and leaves no temporary file when the fill fails half-way', async () => {
    const file = join(dir, 'state.json');
    await writeFileAtomic(file, 'previous');
    const failed = writeFileAtomic(file, async (temp) => {
      await writeFile(temp, 'half of the new');
      throw new Error('disk full');
    });
    await expect(failed).rejects.toThrow('disk full');
    expect(await readFile(file, 'utf8')).toBe('previous');
    expect(await readdir(dir)).toEqual(['state.json']);
  });
});
