import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';
import { snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * A full build into the folder of the previous one hard-links every page file whose bytes did not
 * change (issue 20.2): the new tree shares those files with the retired one, so neither writing them
 * nor deleting the retired tree costs their blocks. The bytes are exactly a fresh build's.
 */
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-link-unchanged-'));
  await seedBundle(join(root, 'cache'));
});

afterAll(() => rm(root, { recursive: true, force: true }));

const build = (out: string, env: Record<string, string> = {}) =>
  runCli(['build', '--out', join(root, out), '--full', '--no-report', '--quiet', '--cache-dir', join(root, 'cache')], {
    env: { SOURCE_DATE_EPOCH: '1790000000', ...env },
  });
const inode = async (out: string, file: string) => (await stat(join(root, out, file))).ino;

describe('a full build into the previous output', () => {
  it('links unchanged page files instead of writing them, and its tree is byte for byte a fresh build', async () => {
    expect((await build('site')).code).toBe(0);
    const pages = ['index.html', 'about/index.html', 'about/_payload.json', 'news/index.html'];
    const before = await Promise.all(pages.map((file) => inode('site', file)));
    const again = await build('site');
    expect(again.code, again.stderr).toBe(0);
    expect(await Promise.all(pages.map((file) => inode('site', file)))).toEqual(before);
    // The retired tree goes in a process of its own after the command; then the files are the new tree's alone.
    await waitFor(async () => (await stat(join(root, 'site/about/index.html'))).nlink === 1 && (await trashOf('site')).length === 0);

    expect((await build('fresh')).code).toBe(0);
    expect(await snapshotTree(join(root, 'site'))).toEqual(await snapshotTree(join(root, 'fresh')));
  }, 240_000);

  it('writes every file anew with SITE_LINK_UNCHANGED=off, and deletes the retired tree before it ends with SITE_BACKGROUND_CLEANUP=off', async () => {
    const before = await inode('site', 'about/index.html');
    expect((await build('site', { SITE_LINK_UNCHANGED: 'off', SITE_BACKGROUND_CLEANUP: 'off' })).code).toBe(0);
    expect(await inode('site', 'about/index.html')).not.toBe(before);
    expect(await readFile(join(root, 'site/about/index.html'), 'utf8')).toContain('<html');
    expect(await trashOf('site')).toEqual([]);
  }, 240_000);
});

/** The retired trees of `out` not yet deleted. */
async function trashOf(out: string): Promise<string[]> {
  return (await readdir(root)).filter((name) => name.startsWith(`.${out}.trash-`));
}

async function waitFor(check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
