import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { runCli } from '../helpers/cli.ts';
import { snapshotTree } from '../helpers/tree.ts';

/** Rendering on threads beside the main thread (--render-threads) is a matter of speed only. */

let backend: ContentServer;
let dir: string;
beforeAll(async () => {
  // Enough pages that the threads finish starting while pages are still left to render.
  backend = await startContentServer({ scale: 1500, now: () => new Date('2026-03-02T09:00:00Z') });
  dir = await mkdtemp(join(tmpdir(), 'build-threads-'));
});
afterAll(() => backend.close());

const buildWith = (threads: number, out: string, env: Record<string, string> = {}): ReturnType<typeof runCli> =>
  runCli(['build', '--endpoint', backend.url, '--out', join(dir, out), '--cache-dir', join(dir, 'cache'), '--render-threads', String(threads), '--no-report'], {
    env: { SOURCE_DATE_EPOCH: '1700000000', CI: 'true', ...env },
  });

describe('render threads', () => {
  it('write exactly the bytes the main thread alone writes, and do render part of the pages', async () => {
    const alone = await buildWith(0, 'alone');
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toMatch(/^\[write\] \d+ pages, [\d.]+ MiB in \d+ ms$/m);
    const threaded = await buildWith(2, 'threaded');
    expect(threaded.code, threaded.stderr).toBe(0);
    const onThreads = Number(/^\[write\] \d+ pages, .* \((\d+) on 2 render threads\)$/m.exec(threaded.stdout)?.[1]);
    expect(onThreads).toBeGreaterThan(0);
    const [a, b] = await Promise.all([snapshotTree(join(dir, 'alone')), snapshotTree(join(dir, 'threaded'))]);
    expect(Object.keys(b).length).toBeGreaterThan(1500);
    expect(b).toEqual(a);
  }, 240_000);

  it('splice the shared header and footer into every page as the very bytes rendering them there gives', async () => {
    // SITE_SHARED_MARKUP=off renders the layout's SharedMarkup parts on every page: the site's cache keys
    // (the active section for the header) must make no difference to any page, on either thread.
    const [shared, unshared] = await Promise.all([buildWith(1, 'shared'), buildWith(1, 'unshared', { SITE_SHARED_MARKUP: 'off' })]);
    expect(shared.code, shared.stderr).toBe(0);
    expect(unshared.code, unshared.stderr).toBe(0);
    const [a, b] = await Promise.all([snapshotTree(join(dir, 'shared')), snapshotTree(join(dir, 'unshared'))]);
    expect(Object.keys(a).length).toBeGreaterThan(1500);
    expect(a).toEqual(b);
    // Pages of different sections got their own header.
    const page = (path: string): Promise<string> => readFile(join(dir, 'shared', path), 'utf8');
    expect(await page('events/index.html')).toContain('<a aria-current="page" href="/events">');
    expect(await page('news/index.html')).toContain('<a aria-current="page" href="/news">');
    expect(await page('events/index.html')).not.toContain('site-shared-markup');
  }, 240_000);
});
