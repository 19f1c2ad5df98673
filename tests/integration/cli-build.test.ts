import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildMeta, LatestBuild, Payload } from '../../runtime/shared/contract.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { listFiles, snapshotTree } from '../helpers/tree.ts';

describe('site build from the embedded backend', () => {
  let out: string;
  let result: CliResult;

  beforeAll(async () => {
    out = join(await mkdtemp(join(tmpdir(), 'site-build-')), 'site');
    result = await runCli(['build', '--out', out]);
  }, 240_000);

  it('succeeds and prints how many pages it wrote', () => {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\[build\] wrote \d+ pages to /);
  });

  it('writes every page with its payload, the build meta, latest.json, 404, sitemap and robots', async () => {
    const files = await listFiles(out);
    for (const f of [
      'index.html',
      '_payload.json',
      'news/index.html',
      'news/_payload.json',
      'about/about-large/index.html',
      '404.html',
      'sitemap.xml',
      'robots.txt',
      '_assets/builds/latest.json',
    ]) {
      expect(files).toContain(f);
    }
    const latest = JSON.parse(await readFile(join(out, '_assets/builds/latest.json'), 'utf8')) as LatestBuild;
    const meta = JSON.parse(await readFile(join(out, `_assets/builds/meta/${latest.id}.json`), 'utf8')) as BuildMeta;
    expect(meta.id).toBe(latest.id);
    expect(meta.prerendered.length).toBeGreaterThan(120);
    for (const path of meta.prerendered) {
      const file = path === '/' ? '_payload.json' : `${path.slice(1)}/_payload.json`;
      expect(files, path).toContain(file);
    }
    const payload = JSON.parse(await readFile(join(out, 'news/_payload.json'), 'utf8')) as Payload;
    expect(payload).toMatchObject({ v: 1, buildId: latest.id, path: '/news' });
    expect(files.some((f) => f.startsWith('_assets/') && f.endsWith('.css'))).toBe(true);
    expect(files.filter((f) => /^_assets\/.*\.js$/.test(f)).length).toBeGreaterThan(10);
  });

  it('copies every media file the content references into the output', async () => {
    const files = await listFiles(out);
    const media = files.filter((f) => f.startsWith('media/'));
    expect(media.length).toBeGreaterThan(50);
    const html = await readFile(join(out, 'news/index.html'), 'utf8');
    for (const [, src] of html.matchAll(/src="(\/media\/[^"]+)"/g)) expect(files).toContain(src!.slice(1));
  });

  it('lists every page in the sitemap and points robots.txt at it', async () => {
    const sitemap = await readFile(join(out, 'sitemap.xml'), 'utf8');
    const latest = JSON.parse(await readFile(join(out, '_assets/builds/latest.json'), 'utf8')) as LatestBuild;
    const meta = JSON.parse(await readFile(join(out, `_assets/builds/meta/${latest.id}.json`), 'utf8')) as BuildMeta;
    // Every page but the editors' login form and the search page, which are noindex.
    expect(sitemap.match(/<loc>/g)?.length).toBe(meta.prerendered.filter((path) => path !== '/login' && path !== '/search').length);
    expect(sitemap).not.toMatch(/\/(login|search)<\/loc>/);
    expect(sitemap).toMatch(/<lastmod>\d{4}-\d\d-\d\dT/);
    expect(await readFile(join(out, 'robots.txt'), 'utf8')).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
  });

  it('gives the same build id and pages when nothing changed, run from another folder with a render thread', async () => {
    const elsewhere = await mkdtemp(join(tmpdir(), 'site-build-'));
    const again = join(elsewhere, 'site');
    // The TypeScript set-up (JSX included) must not depend on the folder the command is run from.
    const second = await runCli(['build', '--out', again, '--quiet', '--render-threads', '1'], { cwd: elsewhere });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const [a, b] = await Promise.all(
      [out, again].map(async (d) => JSON.parse(await readFile(join(d, '_assets/builds/latest.json'), 'utf8')) as LatestBuild),
    );
    expect(b!.id).toBe(a!.id);
    for (const page of ['index.html', 'news/index.html', 'about/about-large/index.html']) {
      expect(await readFile(join(again, page), 'utf8'), page).toBe(await readFile(join(out, page), 'utf8'));
    }
  }, 240_000);
});

describe('site build against an endpoint nobody listens on', () => {
  it('exits non-zero within 60 s, names the endpoint and what to check, and leaves the output as it was', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'site-build-')), 'site');
    await mkdir(join(out, '_assets/builds'), { recursive: true });
    await writeFile(join(out, '_assets/builds/latest.json'), '{"id":"previous","timestamp":1}');
    await writeFile(join(out, 'index.html'), '<p>the previous good build</p>');
    const before = await snapshotTree(out);

    const result = await runCli(['build', '--endpoint', 'http://127.0.0.1:9/graphql', '--out', out]);

    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(60_000);
    expect(result.stderr).toContain('[EndpointUnreachable] The GraphQL endpoint http://127.0.0.1:9/graphql could not be reached');
    expect(result.stderr).toContain('Check that the backend is running');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await snapshotTree(out)).toEqual(before);
    expect(await listFiles(join(out, '..'))).toEqual(
      Object.keys(before)
        .map((f) => `site/${f}`)
        .sort(),
    );
  });
});

describe('site command line', () => {
  it('rejects an unknown option with exit code 2 and a pointer to --help', async () => {
    const result = await runCli(['build', '--no-such-flag']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown option '--no-such-flag'");
    expect(result.stderr).toContain('--help');
  });

  it('rejects a bad number with exit code 2 and says what to pass', async () => {
    const result = await runCli(['build', '--concurrency', '0', '--out', join(tmpdir(), 'never-written')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("[InvalidOption] Expected --concurrency to be an integer from 1 to 256, got '0'.");
  });
});
