import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { gqlData, loginToken } from '../backend/client.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { updateContent } from '../helpers/content-edits.ts';
import { snapshotTree } from '../helpers/tree.ts';

/** Rendering on threads beside the main thread (--render-threads) is a matter of speed only. */

/**
 * Enough pages that the threads finish starting while pages are still left to render: a thread loads
 * React and the site's code in about 0.6 s of CPU, as long as the main thread takes to render some 150
 * to 250 of these pages, and a count given starts the threads with the build (docs/decisions/render-threads.md).
 * 600 pages leave the threads hundreds of pages of every route; 1,500 cost each of the file's seven
 * builds of this site twice the CPU for nothing these tests check.
 */
const SCALE = 600;

let backend: ContentServer;
let dir: string;
/**
 * Builds that tests only read, made once before any test edits the content: the cold build on the main
 * thread alone, then one on two render threads and one that renders the shared markup on every page
 * (SITE_SHARED_MARKUP=off) beside it. The first test compares the threads' bytes with the main thread's,
 * the last the spliced header and footer with the rendered ones.
 */
let alone: CliResult;
let threaded: CliResult;
let unshared: CliResult;
beforeAll(async () => {
  backend = await startContentServer({ scale: SCALE, now: () => new Date('2026-03-02T09:00:00Z') });
  dir = await mkdtemp(join(tmpdir(), 'build-threads-'));
  alone = await buildWith(0, 'alone');
  [threaded, unshared] = await Promise.all([buildWith(2, 'threaded'), buildWith(1, 'unshared', { SITE_SHARED_MARKUP: 'off' })]);
}, 480_000);
afterAll(() => backend.close());

const buildWith = (
  threads: number,
  out: string,
  env: Record<string, string> = {},
  flags: readonly string[] = [],
): ReturnType<typeof runCli> =>
  runCli(
    [
      'build',
      '--endpoint',
      backend.url,
      '--out',
      join(dir, out),
      '--cache-dir',
      join(dir, 'cache'),
      '--render-threads',
      String(threads),
      '--no-report',
      ...flags,
    ],
    {
      env: { SOURCE_DATE_EPOCH: '1700000000', CI: 'true', ...env },
    },
  );

describe('render threads', () => {
  it('write exactly the bytes the main thread alone writes, and do render part of the pages', async () => {
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(/^\[write\] \d+ pages, [\d.]+ MiB in \d+ ms$/m);
    expect(threaded.code, threaded.stderr).toBe(0);
    const onThreads = Number(/^\[write\] \d+ pages, .* \((\d+) on 2 render threads\)$/m.exec(threaded.stdout)?.[1]);
    expect(onThreads).toBeGreaterThan(0);
    const [a, b] = await Promise.all([snapshotTree(join(dir, 'alone')), snapshotTree(join(dir, 'threaded'))]);
    expect(Object.keys(b).length).toBeGreaterThan(SCALE);
    // The cold build held the pages read ahead while the client bundled in a scratch file, gone with them.
    expect(Object.keys(a).filter((file) => file.includes('pages-ahead'))).toEqual([]);
    expect(b).toEqual(a);
  }, 240_000);

  it("are not started for an update in place that renders a few pages, and start at once when the folder's state does not hold", async () => {
    const first = await buildWith(2, 'update');
    expect(first.code, first.stderr).toBe(0);
    const token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string }[] } }>(backend, '{ newsItems(first: 1) { nodes { id } } }');
    await updateContent(backend, token, 'NewsItem', newsItems.nodes[0]!.id, { title: 'Edited for the render threads' });
    const update = await buildWith(2, 'update');
    expect(update.code, update.stderr).toBe(0);
    // A handful of pages, all on the main thread: the threads never loaded React and the site's code for them.
    expect(update.stdout).toMatch(/updated in place: [1-9]\d* pages rendered/);
    const write = /^\[write\] \d+ pages, .* \((\d+) on 2 render threads; (\d+) unchanged, kept\)$/m.exec(update.stdout);
    expect(write, update.stdout).not.toBeNull();
    expect(Number(write![1])).toBe(0);
    // Two thirds of the pages at least, as 1,000 were of 1,500.
    expect(Number(write![2])).toBeGreaterThan((SCALE * 2) / 3);
    // Another option that reaches the output: the state does not hold, every page renders, the threads help at once.
    const changed = await buildWith(2, 'update', {}, ['--payload-budget', '200000']);
    expect(changed.code, changed.stderr).toBe(0);
    expect(Number(/\((\d+) on 2 render threads/.exec(changed.stdout)?.[1])).toBeGreaterThan(0);
  }, 240_000);

  it('are not started by default for a site smaller than a thread takes to load, and are at once when a count is given: the same bytes', async () => {
    const sample = await startContentServer({ now: () => new Date('2026-03-02T09:00:00Z') });
    try {
      const small = (out: string, flags: readonly string[]): ReturnType<typeof runCli> =>
        runCli(['build', '--endpoint', sample.url, '--out', join(dir, out), '--cache-dir', join(dir, 'cache'), '--no-report', ...flags], {
          env: { SOURCE_DATE_EPOCH: '1700000000', CI: 'true' },
        });
      // The default count (one on 2 CPUs, none on 1): every page of the sample's 145 on the main thread.
      const byDefault = await small('small-default', []);
      expect(byDefault.code, byDefault.stderr).toBe(0);
      const write = /^\[write\] (\d+) pages, [\d.]+ MiB in \d+ ms(?: \((\d+) on \d+ render threads?\))?$/m.exec(byDefault.stdout);
      expect(write, byDefault.stdout).not.toBeNull();
      expect(Number(write![1])).toBeGreaterThan(100);
      expect(Number(write![2] ?? 0)).toBe(0);
      // A count given: the thread starts at once and renders part of the same pages.
      const given = await small('small-given', ['--render-threads', '1', '--full']);
      expect(given.code, given.stderr).toBe(0);
      expect(Number(/\((\d+) on 1 render thread\)/.exec(given.stdout)?.[1])).toBeGreaterThan(0);
      const [a, b] = await Promise.all([snapshotTree(join(dir, 'small-default')), snapshotTree(join(dir, 'small-given'))]);
      expect(b).toEqual(a);
    } finally {
      await sample.close();
    }
  }, 240_000);

  it('splice the shared header and footer into every page as the very bytes rendering them there gives', async () => {
    // SITE_SHARED_MARKUP=off renders the layout's SharedMarkup parts on every page: the site's cache keys
    // (the active section for the header) must make no difference to any page, on either thread. The
    // build with shared markup is the one on two render threads (pages from the main thread and from both).
    const shared = threaded;
    expect(shared.code, shared.stderr).toBe(0);
    expect(unshared.code, unshared.stderr).toBe(0);
    const [a, b] = await Promise.all([snapshotTree(join(dir, 'threaded')), snapshotTree(join(dir, 'unshared'))]);
    expect(Object.keys(a).length).toBeGreaterThan(SCALE);
    expect(a).toEqual(b);
    // Pages of different sections got their own header.
    const page = (path: string): Promise<string> => readFile(join(dir, 'threaded', path), 'utf8');
    expect(await page('events/index.html')).toContain('<a aria-current="page" href="/events">');
    expect(await page('news/index.html')).toContain('<a aria-current="page" href="/news">');
    expect(await page('events/index.html')).not.toContain('site-shared-markup');
  }, 240_000);
});
