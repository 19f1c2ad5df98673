import { mkdtemp } from 'node:fs/promises';
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

const buildWith = (threads: number, out: string): ReturnType<typeof runCli> =>
  runCli(['build', '--endpoint', backend.url, '--out', join(dir, out), '--cache-dir', join(dir, 'cache'), '--render-threads', String(threads), '--no-report'], {
    env: { SOURCE_DATE_EPOCH: '1700000000', CI: 'true' },
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
});
