import { createHash } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { saveCacheUses } from '../../../../cli/build/incremental/build-state.ts';
import { pruneCache } from '../../../../cli/build/cache-prune.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';

/** Pruning the build cache on its own, without builds (tests/integration/build-cache-prune.test.ts has them). */

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const key = (c: string): string => c.repeat(32);
const later = Date.now() + 2 * HOUR;

describe('pruneCache', () => {
  const dir = tempDirPerTest('cache-prune-');

  /** A folder's state and uses, last built `ago` ms before now. */
  const state = async (cache: string, outDir: string, media: string[], ago: number): Promise<void> => {
    await saveCacheUses(cache, outDir, { media });
    const id = createHash('sha256').update(outDir).digest('hex').slice(0, 16);
    const stateFile = join(cache, 'builds', `${id}.json`);
    await writeFile(stateFile, '{}');
    const then = new Date(Date.now() - ago);
    for (const file of [stateFile, join(cache, 'builds', `${id}.uses.json`)]) await utimes(file, then, then);
  };
  const medium = async (cache: string, k: string, expires = Date.now() + 365 * DAY): Promise<string> => {
    const file = join(cache, 'media', `${k}.${expires}`);
    await mkdir(join(cache, 'media'), { recursive: true });
    await writeFile(file, 'bytes');
    return file;
  };

  it('keeps the newest states up to the count and within the age, and the media they use', async () => {
    const cache = join(dir(), 'cache');
    await state(cache, '/out/new', [key('a')], 1 * HOUR);
    await state(cache, '/out/mid', [key('b')], 2 * HOUR);
    await state(cache, '/out/third', [key('c')], 3 * HOUR);
    await state(cache, '/out/old', [key('d')], 20 * DAY);
    for (const c of 'abcde') await medium(cache, key(c));
    const result = await pruneCache(cache, { maxStates: 2, now: later });
    expect(result.kept.map((s) => s.outDir)).toEqual(['/out/new', '/out/mid']);
    expect(result.removed.map((s) => s.outDir).sort()).toEqual(['/out/old', '/out/third']);
    expect((await readdir(join(cache, 'media'))).map((name) => name.slice(0, 32)).sort()).toEqual([key('a'), key('b')]);
    expect((await readdir(join(cache, 'builds'))).filter((name) => !name.startsWith('.')).length).toBe(4);
  });

  it('keeps the state of the folder just built whatever the bounds', async () => {
    const cache = join(dir(), 'cache');
    await state(cache, '/out/a', [key('a')], 30 * DAY);
    const result = await pruneCache(cache, { maxStates: 0, keep: '/out/a', now: later });
    expect(result.kept.map((s) => s.outDir)).toEqual(['/out/a']);
  });

  it('removes a state whose uses are damaged or name another folder, and with it nothing is kept for it', async () => {
    const cache = join(dir(), 'cache');
    await state(cache, '/out/a', [key('a')], 3 * HOUR);
    const [uses] = (await readdir(join(cache, 'builds'))).filter((name) => name.endsWith('.uses.json'));
    await writeFile(join(cache, 'builds', uses!), JSON.stringify({ version: 1, outDir: '/out/elsewhere', uses: { media: [key('a')] } }));
    await utimes(join(cache, 'builds', uses!), new Date(Date.now() - 3 * HOUR), new Date(Date.now() - 3 * HOUR));
    await medium(cache, key('a'));
    const result = await pruneCache(cache, { now: later });
    expect(result.kept).toEqual([]);
    expect(result.removed).toHaveLength(1);
    expect(await readdir(join(cache, 'media'))).toEqual([]);
  });

  it('removes a link among the entries as a link, never what it points to', async () => {
    const cache = join(dir(), 'cache');
    const outside = join(dir(), 'precious.txt');
    await writeFile(outside, 'keep me');
    await mkdir(join(cache, 'media'), { recursive: true });
    await mkdir(join(cache, 'bundle'), { recursive: true });
    await mkdir(join(dir(), 'folder'), { recursive: true });
    await writeFile(join(dir(), 'folder', 'inside.txt'), 'keep me too');
    await symlink(outside, join(cache, 'media', `${key('f')}.${Date.now() + DAY}`));
    await symlink(join(dir(), 'folder'), join(cache, 'bundle', '0123456789abcdef'));
    const result = await pruneCache(cache, { now: later });
    expect(result.entries).toMatchObject({ media: { count: 1 }, bundle: { count: 1 } });
    expect(await readdir(join(cache, 'media'))).toEqual([]);
    expect(await readdir(join(cache, 'bundle'))).toEqual([]);
    expect(await readFile(outside, 'utf8')).toBe('keep me');
    expect(await readFile(join(dir(), 'folder', 'inside.txt'), 'utf8')).toBe('keep me too');
  });

  it('leaves alone what was written within the hour, and files of names the cache never writes', async () => {
    const cache = join(dir(), 'cache');
    await medium(cache, key('a'));
    await writeFile(join(cache, 'media', 'notes.txt'), 'mine');
    expect((await pruneCache(cache)).entries.media!.count).toBe(0);
    expect((await pruneCache(cache, { now: later })).entries.media!.count).toBe(1);
    expect(await readdir(join(cache, 'media'))).toEqual(['notes.txt']);
  });

  it('with entriesEveryMs, removes the states beyond the bounds every time, and the entries only once the last sweep is that old', async () => {
    const cache = join(dir(), 'cache');
    await state(cache, '/out/new', [key('a')], 1 * HOUR);
    await state(cache, '/out/old', [key('b')], 20 * DAY);
    await medium(cache, key('a'));
    await medium(cache, key('b'));
    const marker = join(cache, 'builds', '.entries-pruned');
    await writeFile(marker, '');
    const swept = new Date(later - 10 * 60_000);
    await utimes(marker, swept, swept);
    const soon = await pruneCache(cache, { now: later, entriesEveryMs: HOUR });
    expect(soon.removed.map((s) => s.outDir)).toEqual(['/out/old']);
    expect(soon.entries).toEqual({});
    expect((await readdir(join(cache, 'media'))).length).toBe(2);
    // An hour after the last sweep, the entries go too.
    const hourOn = await pruneCache(cache, { now: later + HOUR, entriesEveryMs: HOUR });
    expect(hourOn.entries.media!.count).toBe(1);
    expect(await readdir(join(cache, 'media'))).toHaveLength(1);
    // A sweep recorded ahead of the clock (the clock was set back since) is no reason to wait.
    await medium(cache, key('c'));
    const setBack = await pruneCache(cache, { now: later, entriesEveryMs: HOUR });
    expect(setBack.entries.media!.count).toBe(1);
    expect((await readdir(join(cache, 'media')))[0]).toMatch(new RegExp(`^${key('a')}\\.`));
  });

  it('never writes or dates through a link planted at the sweep marker, and takes a marker that is no plain file as no sweep yet', async () => {
    const cache = join(dir(), 'cache');
    await state(cache, '/out/new', [key('a')], 1 * HOUR);
    await medium(cache, key('a'));
    await medium(cache, key('b'));
    const secret = join(dir(), 'deploy-key');
    await writeFile(secret, 'a secret the build user can write');
    const kept = new Date(later - 5 * 60_000);
    await utimes(secret, kept, kept);
    await mkdir(join(cache, 'builds'), { recursive: true });
    await symlink(secret, join(cache, 'builds', '.entries-pruned'));
    const pruned = await pruneCache(cache, { now: later, entriesEveryMs: HOUR });
    // The link's target is within the hour, but the link is no marker: the sweep runs.
    expect(pruned.entries.media!.count).toBe(1);
    expect(await readFile(secret, 'utf8')).toBe('a secret the build user can write');
    expect((await lstat(secret)).mtimeMs).toBe(kept.getTime());
    const marker = await lstat(join(cache, 'builds', '.entries-pruned'));
    expect(marker.isFile()).toBe(true);
    expect(marker.mtimeMs).toBe(later);
  });
});
