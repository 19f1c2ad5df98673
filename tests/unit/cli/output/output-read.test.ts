import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBytes, readText } from '../../../../cli/output/read.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'output-read-'));
  await writeFile(join(dir, 'page.json'), '{"title":"Ø"}');
  execFileSync('mkfifo', [join(dir, 'fifo.json')]);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("reading an output folder's files", () => {
  it('reads a plain file as it is', async () => {
    expect(await readText(join(dir, 'page.json'))).toBe('{"title":"Ø"}');
    expect((await readBytes(join(dir, 'page.json'))).toString('utf8')).toBe('{"title":"Ø"}');
  });

  it("does not wait on a FIFO, a device or a link in a file's place: it is refused", async () => {
    await expect(readText(join(dir, 'fifo.json'))).rejects.toThrow(/not a plain file/);
    await expect(readBytes(join(dir, 'fifo.json'))).rejects.toThrow(/not a plain file/);
    // A link to a device that never ends.
    await symlink('/dev/zero', join(dir, 'zero.json'));
    await expect(readBytes(join(dir, 'zero.json'))).rejects.toThrow();
  }, 5_000);

  it('refuses a file past 2 GiB instead of crashing the process on it', async () => {
    // Sparse: no disk space used.
    execFileSync('truncate', ['-s', '3G', join(dir, 'huge.html')]);
    await expect(readBytes(join(dir, 'huge.html'))).rejects.toThrow(/larger than 2 GiB/);
  });
});
