import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { LatestBuild } from '../../runtime/shared/contract.ts';
import { runCli, startPreview } from '../helpers/cli.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * The output folder is never lost (issue 17.3): a build killed at each step of its swap leaves a state
 * that the next build or `site preview` turns back into a whole build, old or new, and no retired or
 * staging tree stays behind.
 */

let root: string;
let overrides: string;
const env = (): Record<string, string> => ({ CONTENT_OVERRIDES_FILE: overrides });

async function build(out: string, extra: Record<string, string> = {}): Promise<Awaited<ReturnType<typeof runCli>>> {
  return runCli(['build', '--out', out, '--cache-dir', join(root, 'cache'), '--quiet', '--no-report'], { env: { ...env(), ...extra } });
}

async function latestOf(out: string): Promise<LatestBuild> {
  return JSON.parse(await readFile(join(out, '_assets/builds/latest.json'), 'utf8')) as LatestBuild;
}

/** The siblings of `out` that a build leaves only while it runs. */
async function leftovers(out: string): Promise<string[]> {
  const name = out.slice(out.lastIndexOf('/') + 1);
  return (await readdir(join(out, '..'))).filter(
    (n) => n.startsWith(`.${name}.`) || n === `${name}.swap` || n === `${name}.lock` || n.startsWith(`${name}.lock.`),
  );
}

/** Starts `site preview` on `out`, runs `check` with its address and stderr, and stops it. */
async function withPreview(out: string, check: (url: string, stderr: string) => Promise<void>): Promise<void> {
  const preview = await startPreview(out);
  try {
    await check(preview.url, preview.stderr());
  } finally {
    preview.stop();
  }
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-crash-'));
  await seedBundle(join(root, 'cache'));
  overrides = join(root, 'overrides.json');
  await writeFile(overrides, '{}');
});

describe('a build killed during its swap', () => {
  it.each(['journal', 'retired', 'swapped'])(
    'at step %s leaves a folder that site preview serves whole, and the next build cleans up',
    async (step) => {
      const out = join(root, `site-${step}`);
      expect((await build(out)).code).toBe(0);
      const before = await latestOf(out);
      // A site-wide change, so the killed build is another build id.
      await writeFile(overrides, JSON.stringify({ site: { name: `Northlight (${step})` } }));
      const killed = await build(out, { SITE_CRASH_AT: `swap:${step}` });
      expect(killed.code).toBeNull();

      await withPreview(out, async (url, stderr) => {
        const home = await fetch(`${url}/`);
        expect(home.status).toBe(200);
        const latest = (await (await fetch(`${url}/_assets/builds/latest.json`)).json()) as LatestBuild;
        // The journal is written only for a complete staging tree: the swap is finished, never undone.
        expect(latest.id).not.toBe(before.id);
        expect(await (await fetch(`${url}/_assets/builds/meta/${latest.id}.json`)).status).toBe(200);
        if (step !== 'swapped') expect(stderr).toMatch(/\[preview\] finished the swap|\[preview\] cleared the record/);
      });

      await writeFile(overrides, '{}');
      expect((await build(out)).code).toBe(0);
      // The retired trees go in a process of their own after the command (backgroundCleanup).
      await expect.poll(() => leftovers(out), { timeout: 60_000 }).toEqual([]);
      expect((await latestOf(out)).id).toBe(before.id);
    },
    240_000,
  );

  it('is finished by the next build too, which says so', async () => {
    const out = join(root, 'site-next-build');
    expect((await build(out)).code).toBe(0);
    await writeFile(overrides, JSON.stringify({ site: { name: 'Northlight (next build)' } }));
    expect((await build(out, { SITE_CRASH_AT: 'swap:retired' })).code).toBeNull();
    // Between the renames there is no folder at all; the journal knows where both trees are.
    expect(await leftovers(out)).toEqual(expect.arrayContaining(['site-next-build.swap', 'site-next-build.lock']));
    await writeFile(overrides, '{}');
    const next = await runCli(['build', '--out', out, '--cache-dir', join(root, 'cache'), '--no-report'], { env: env() });
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout + next.stderr).toContain('finished the swap of an interrupted build');
    // The retired trees go in a process of their own after the command (backgroundCleanup).
    await expect.poll(() => leftovers(out), { timeout: 60_000 }).toEqual([]);
  }, 240_000);
});

describe('a site preview that is running when a build is killed between the renames', () => {
  it('finishes the swap itself rather than answer 404', async () => {
    const out = join(root, 'site-running-preview');
    expect((await build(out)).code).toBe(0);
    const before = await latestOf(out);
    await withPreview(out, async (url) => {
      expect((await fetch(`${url}/`)).status).toBe(200);
      await writeFile(overrides, JSON.stringify({ site: { name: 'Northlight (running preview)' } }));
      expect((await build(out, { SITE_CRASH_AT: 'swap:retired' })).code).toBeNull();
      // The folder is gone now; the preview's next answer puts the new tree in its place.
      expect(await leftovers(out)).toEqual(expect.arrayContaining(['site-running-preview.swap']));
      const home = await fetch(`${url}/`);
      expect(home.status).toBe(200);
      const latest = (await (await fetch(`${url}/_assets/builds/latest.json`)).json()) as LatestBuild;
      expect(latest.id).not.toBe(before.id);
    });
    await writeFile(overrides, '{}');
    expect((await build(out)).code).toBe(0);
    // The retired trees go in a process of their own after the command (backgroundCleanup).
    await expect.poll(() => leftovers(out), { timeout: 60_000 }).toEqual([]);
  }, 240_000);
});

describe('a build killed while it takes over a stale lock', () => {
  it('blocks neither the next build nor leaves its claim behind', async () => {
    const out = join(root, 'site-takeover');
    // A lock left by a build on this machine whose process is gone.
    const gone = spawn(process.execPath, ['-e', '']);
    const pid = gone.pid!;
    await new Promise((resolve) => gone.on('exit', resolve));
    await writeFile(`${out}.lock`, JSON.stringify({ pid, host: hostname(), startedAt: '2026-11-24T10:00:00.000Z', token: 'stale' }));
    // Killed after claiming the take-over, before removing the stale lock.
    expect((await build(out, { SITE_CRASH_AT: 'lock:takeover' })).code).toBeNull();
    expect(await leftovers(out)).toEqual(expect.arrayContaining(['site-takeover.lock', 'site-takeover.lock.takeover-stale']));
    const next = await build(out);
    expect(next.code, next.stderr).toBe(0);
    // The retired trees go in a process of their own after the command (backgroundCleanup).
    await expect.poll(() => leftovers(out), { timeout: 60_000 }).toEqual([]);
    expect((await latestOf(out)).id).toMatch(/\w/);
  }, 240_000);
});
