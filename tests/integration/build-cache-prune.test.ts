import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneCache } from '../../cli/build/cache-prune.ts';
import type { BuildReport } from '../../cli/report/report.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';
import { runCli } from '../helpers/cli.ts';

/**
 * The build cache stays bounded (docs/cli.md, "site cache"): a build ends by removing the states of
 * output folders beyond the bounds, and the media, search partitions, bundles and image derivatives no
 * kept state uses; what an update in place needs stays, and it still updates in place afterwards.
 */

const EPOCH = '1700000000';
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
let dir: string;
let cache: string;
let overrides: string;
const build = (out: string, ...flags: string[]): ReturnType<typeof runCli> =>
  runCli(['build', '--out', join(dir, out), '--cache-dir', cache, '--quiet', ...flags], {
    env: { SOURCE_DATE_EPOCH: EPOCH, CONTENT_OVERRIDES_FILE: overrides },
  });
const report = async (): Promise<BuildReport> => JSON.parse(await readFile(join(dir, 'build-report.json'), 'utf8')) as BuildReport;
const list = async (sub: string): Promise<string[]> => (await readdir(join(cache, sub)).catch(() => [] as string[])).sort();
/** The state files of an output folder, named as the cache names them. */
const stateId = (out: string): string => createHash('sha256').update(join(dir, out)).digest('hex').slice(0, 16);
/** The uses file beside a folder's state. */
const usesOf = async (out: string): Promise<{ outDir: string; uses: Record<string, string[]> }> =>
  JSON.parse(await readFile(join(cache, 'builds', `${stateId(out)}.uses.json`), 'utf8')) as {
    outDir: string;
    uses: Record<string, string[]>;
  };
/** Sets the files' times `ms` before now, as if written then. */
const age = async (files: string[], ms: number): Promise<void> => {
  const then = new Date(Date.now() - ms);
  for (const file of files) await utimes(file, then, then);
};
/** Edits the newest article's title, so a build into a folder that holds the previous one updates in place. */
let edits = 0;
const editContent = async (): Promise<void> => {
  const feed = await readFile(join(dir, 'a/feeds/news.xml'), 'utf8');
  const slug = /<link>[^<]*\/news\/([^<]+)<\/link>/.exec(feed.slice(feed.indexOf('<item>')))![1]!;
  await writeFile(overrides, JSON.stringify({ news: [{ slug, title: `Edited headline ${++edits}` }] }));
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'build-cache-prune-'));
  cache = join(dir, 'cache');
  overrides = join(dir, 'overrides.json');
  await writeFile(overrides, '{}');
  // The run's client bundle, as a build made it earlier: what these tests prune is what each state uses.
  await seedBundle(cache);
  // Two output folders: `b` without the search, so its state refers to other entries than `a`'s.
  for (const [out, ...flags] of [['a'], ['b', '--no-search']]) {
    const result = await build(out!, ...flags);
    expect(result.code, result.stderr).toBe(0);
  }
}, 300_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the build cache after builds into two folders', () => {
  it('records, beside each state, the output folder and the cache entries its build used', async () => {
    const uses = await usesOf('a');
    expect(uses.outDir).toBe(join(dir, 'a'));
    const media = await list('media');
    expect(uses.uses.media!.length).toBeGreaterThan(50);
    // Every medium the build used is an entry of the cache, by its key.
    for (const key of uses.uses.media!)
      expect(
        media.some((name) => name.startsWith(`${key}.`)),
        key,
      ).toBe(true);
    expect(uses.uses.search).toEqual((await list('search')).map((name) => name.replace(/\.pagefind$/, '')));
    expect(uses.uses.bundle).toEqual(await list('bundle'));
  });

  it('`site cache` shows each kind with its count and bytes, and each folder with its last build', async () => {
    const shown = await runCli(['cache', '--cache-dir', cache]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`Build cache ${cache}:`);
    expect(shown.stdout).toMatch(/^ {2}states +2 +[\d.]+ KiB/m);
    expect(shown.stdout).toMatch(new RegExp(`^ {2}media +${(await list('media')).length} +[\\d.]+ KiB`, 'm'));
    expect(shown.stdout).toMatch(/^ {2}search +1 /m);
    expect(shown.stdout).toMatch(/^ {2}bundle +1 /m);
    for (const out of ['a', 'b'])
      expect(shown.stdout).toMatch(
        new RegExp(`^ {4}\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC +\\d+ min +[\\d.]+ KiB +${join(dir, out)}$`, 'm'),
      );
  });

  it('`site cache prune --dry-run` says what the bounds remove, and removes nothing', async () => {
    const before = await list('builds');
    const dry = await runCli(['cache', 'prune', '--cache-dir', cache, '--max-states', '1', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    // `b` was built last: with one state kept, `a`'s goes.
    expect(dry.stdout).toMatch(new RegExp(`Would remove from ${cache}:\\n {2}states +1 .*\\n {4}${join(dir, 'a')}\\n`));
    expect(dry.stdout).toContain(`Kept 1 state:\n    ${join(dir, 'b')}`);
    expect(await list('builds')).toEqual(before);
  });

  it('a build removes the states of folders not built within the bound, and keeps its own', async () => {
    // `b` was last built 15 days ago (the default bound is 14).
    const b = stateId('b');
    await age(
      (await list('builds')).filter((name) => name.startsWith(b)).map((name) => join(cache, 'builds', name)),
      15 * DAY,
    );
    await editContent();
    const result = await build('a');
    expect(result.code, result.stderr).toBe(0);
    expect((await report()).changes!.mode).toBe('incremental');
    expect((await list('builds')).filter((name) => !name.startsWith('.'))).toEqual([`${stateId('a')}.json`, `${stateId('a')}.uses.json`]);
  }, 240_000);

  it('removes the entries no kept state uses, expired media and stale temporary files, and keeps every entry the kept state uses', async () => {
    // What `a`'s state uses. (Each `site build` without --endpoint starts the embedded backend on a new
    // port, and the media cache keys a medium by its URL: `b`'s media are other entries.)
    const { uses } = await usesOf('a');
    const usedMedia = (await list('media')).filter((name) => uses.media!.includes(name.slice(0, 32)));
    const usedSearch = (await list('search')).filter((name) => uses.search!.includes(name.replace(/\.pagefind$/, '')));
    const usedBundle = await list('bundle');
    expect(usedMedia.length).toBeGreaterThan(50);
    expect(usedSearch).toHaveLength(1);
    // What nothing refers to: a medium and a search partition of a folder whose state went, an old
    // bundle, image derivatives, an expired copy of a used medium, a stopped write's temporary file.
    const planted = [
      join(cache, 'media', `${'f'.repeat(32)}.${Date.now() + 365 * DAY}`),
      join(cache, 'media', `${usedMedia[0]!.slice(0, 32)}.1000`),
      join(cache, 'media', `${'e'.repeat(32)}.${Date.now() + DAY}.3b2c.tmp`),
      join(cache, 'search', `${'A'.repeat(43)}.pagefind`),
      join(cache, 'bundle', '0123456789abcdef', 'manifest.json'),
      join(cache, 'images', 'derived', '0123456789abcdef0123', 'x-320.webp'),
    ];
    for (const file of planted) {
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, 'planted');
    }
    // A prune an hour from now: an entry written within the hour may be a running build's, and stays.
    const soon = await pruneCache(cache, { dryRun: true });
    expect(Object.values(soon.entries).reduce((n, k) => n + k.count, 0)).toBe(0);
    const later = await pruneCache(cache, { now: Date.now() + 2 * HOUR });
    expect(later.kept.map((s) => s.outDir)).toEqual([join(dir, 'a')]);
    // The planted partition, and the one the edit before replaced.
    expect(later.entries).toMatchObject({ search: { count: 2 }, bundle: { count: 1 }, images: { count: 1 } });
    expect(later.entries.media!.count).toBeGreaterThanOrEqual(3);
    expect(await list('media')).toEqual(usedMedia);
    expect(await list('search')).toEqual(usedSearch);
    expect(await list('bundle')).toEqual(usedBundle);
    expect(await list('images/derived')).toEqual([]);
  });

  it('leaves the update in place its state: the next build into the folder updates in place and downloads nothing again', async () => {
    const media = await list('media');
    await editContent();
    const result = await build('a');
    expect(result.code, result.stderr).toBe(0);
    expect((await report()).changes).toMatchObject({ mode: 'incremental', pagesKept: expect.any(Number) as number });
    expect((await report()).changes!.pagesRendered).toBeLessThan(10);
    expect(await list('media')).toEqual(media);
    expect(await readFile(join(dir, 'a/feeds/news.xml'), 'utf8')).toContain(`Edited headline ${edits}`);
  }, 240_000);

  it('a build ends by pruning, in bounded time', async () => {
    const result = await runCli(['build', '--out', join(dir, 'c'), '--cache-dir', cache, '--verbose'], {
      env: { SOURCE_DATE_EPOCH: EPOCH, CONTENT_OVERRIDES_FILE: overrides },
    });
    expect(result.code, result.stderr).toBe(0);
    const ms = Number(/\[cache\] pruned in (\d+) ms/.exec(result.stdout)?.[1]);
    expect(ms).toBeLessThan(1000);
  }, 240_000);

  // Pruning never removes what was written within the hour, and a planted entry's ctime is now: these
  // builds and prunes run two hours ahead (SITE_CACHE_NOW, a test hook).
  const env = (later: number): Record<string, string> => ({
    SOURCE_DATE_EPOCH: EPOCH,
    CONTENT_OVERRIDES_FILE: overrides,
    SITE_CACHE_NOW: String(later),
  });
  const marker = (): string => join(cache, 'builds', '.entries-pruned');

  it('a build that evicts a state within the hour of the last sweep removes that state alone; `site cache prune` sweeps the entries', async () => {
    const later = Date.now() + 2 * HOUR;
    // A medium no state uses, and a sweep a minute before the build.
    const name = `${'d'.repeat(32)}.${Date.now() + 365 * DAY}`;
    await writeFile(join(cache, 'media', name), 'planted');
    await writeFile(marker(), '');
    await utimes(marker(), new Date(later - 60_000), new Date(later - 60_000));
    // `c` was last built 15 days ago: the next build evicts its state.
    const c = stateId('c');
    await age(
      (await list('builds')).filter((file) => file.startsWith(c)).map((file) => join(cache, 'builds', file)),
      15 * DAY,
    );
    const result = await runCli(['build', '--out', join(dir, 'a'), '--cache-dir', cache, '--verbose'], { env: env(later) });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/\[cache\] pruned in \d+ ms: removed 1 state\n/);
    expect((await list('builds')).filter((file) => file.startsWith(c))).toEqual([]);
    expect(await list('media')).toContain(name);
    // On request, the whole sweep, whenever the last one was.
    const pruned = await runCli(['cache', 'prune', '--cache-dir', cache], { env: env(later) });
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(/^ {2}media +1 /m);
    expect(await list('media')).not.toContain(name);
  }, 240_000);

  it('a build sweeps the entries once the last sweep is an hour old, and the next update in place still finds its state', async () => {
    const later = Date.now() + 2 * HOUR;
    const name = `${'e'.repeat(32)}.${Date.now() + 365 * DAY}`;
    await writeFile(join(cache, 'media', name), 'planted');
    await utimes(marker(), new Date(later - 61 * 60_000), new Date(later - 61 * 60_000));
    await editContent();
    const result = await runCli(['build', '--out', join(dir, 'a'), '--cache-dir', cache, '--quiet'], { env: env(later) });
    expect(result.code, result.stderr).toBe(0);
    expect((await report()).changes!.mode).toBe('incremental');
    expect(await list('media')).not.toContain(name);
  }, 240_000);
});
