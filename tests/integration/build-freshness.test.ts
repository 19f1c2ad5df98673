import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BuildReport } from '../../cli/report/report.ts';
import { ROOT, runCli, SITE_BIN } from '../helpers/cli.ts';
import { listFiles, snapshotTree } from '../helpers/tree.ts';
import { htmlFileFor } from '../../runtime/shared/paths.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * An incremental build is only as fresh as everything that produced a page (issue 17.1). The tests
 * run the command from a copy of the project, so that they can change its server-side code, its
 * document shell and its lock file as a site developer would, without touching the project itself.
 */

let project: string;
let dir: string;
let overrides: string;

async function build(out: string, ...flags: string[]): Promise<{ report: BuildReport; output: string }> {
  const reportFile = join(dir, `${out}.report.json`);
  const result = await runCli(['build', '--out', join(dir, out), '--cache-dir', join(dir, 'cache'), '--report', reportFile, ...flags], {
    cwd: project,
    env: { CONTENT_OVERRIDES_FILE: overrides, SOURCE_DATE_EPOCH: undefined },
    script: join(project, 'bin/site.js'),
  });
  expect(result.code, result.stderr).toBe(0);
  return { report: JSON.parse(await readFile(reportFile, 'utf8')) as BuildReport, output: result.stdout + result.stderr };
}

/** The build state the cache holds for `out` (the one file in cache/builds/ that names it). */
async function readState(out: string): Promise<{ pages: [string][]; sample: [string, string][] }> {
  // The states themselves, not their cursors or the cache's notes of what each build used.
  for (const name of (await readdir(join(dir, 'cache/builds'))).filter((f) => /^[0-9a-f]{16}\.json$/.test(f))) {
    const state = JSON.parse(await readFile(join(dir, 'cache/builds', name), 'utf8')) as {
      outDir: string;
      pages: [string][];
      sample: [string, string][];
    };
    if (state.outDir === out) return state;
  }
  throw new Error(`no build state for ${out}`);
}

async function edit(file: string, change: (text: string) => string): Promise<void> {
  const path = join(project, file);
  const before = await readFile(path, 'utf8');
  const after = change(before);
  expect(after).not.toBe(before);
  await writeFile(path, after);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'build-freshness-'));
  await seedBundle(join(dir, 'cache'));
  project = join(dir, 'project');
  for (const entry of [
    'bin',
    'cli',
    'runtime',
    'site',
    'backend',
    'templates',
    'types',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.base.json',
    'rollup.config.ts',
  ]) {
    await cp(join(ROOT, entry), join(project, entry), { recursive: true });
  }
  // The installed packages, each a link into the project's own install, so that one of them can be
  // replaced by a copy of another version without touching the project.
  await mkdir(join(project, 'node_modules'));
  // Its compiled CLI (node_modules/.cache) is its own: that cache is the copy's, not the project's.
  for (const name of await readdir(join(ROOT, 'node_modules'))) {
    if (name !== '.cache') await symlink(join(ROOT, 'node_modules', name), join(project, 'node_modules', name));
  }
  overrides = join(dir, 'overrides.json');
  await writeFile(overrides, '{}');
  expect(SITE_BIN).toContain('bin/site.js');
}, 120_000);

describe('an incremental build after the generator changed', () => {
  it('renders every page again after a change to server-side rendering code, to the shell, and to a locked dependency', async () => {
    expect((await build('site')).report.changes).toMatchObject({ mode: 'full' });
    expect((await build('site')).report.changes).toMatchObject({ mode: 'incremental', pagesRendered: 0 });

    await edit('cli/render/head.ts', (text) =>
      text.replace(
        '`<title>${escapeHtml(title)}</title>`,',
        '`<title>${escapeHtml(title)}</title>`,\n    \'<meta name="generator" content="freshness-test">\',',
      ),
    );
    const afterCode = await build('site', '--verbose');
    expect(afterCode.report.changes).toMatchObject({ mode: 'full', pagesKept: 0 });
    expect(afterCode.output).toContain("rendering every page: the generator's or the site's code");
    expect(await readFile(join(dir, 'site/index.html'), 'utf8')).toContain('<meta name="generator" content="freshness-test">');
    expect(await readFile(join(dir, 'site/about/index.html'), 'utf8')).toContain('<meta name="generator" content="freshness-test">');

    await edit('templates/document.html', (text) =>
      text.replace('<!--app-csp-->', '<!--app-csp-->\n    <meta name="shell" content="changed">'),
    );
    const afterShell = await build('site');
    expect(afterShell.report.changes).toMatchObject({ mode: 'full', pagesKept: 0 });
    expect(await readFile(join(dir, 'site/news/index.html'), 'utf8')).toContain('<meta name="shell" content="changed">');
    // The shell is no input of the client bundle, which comes from the cache; the lock file is one.
    expect(afterShell.output).toMatch(/\[bundle\] .*route chunks \(cached\)/);

    await edit('package-lock.json', (text) => text.replace(/("node_modules\/wouter": \{\s*"version": ")([^"]+)"/, '$1$2-patched"'));
    const afterLock = await build('site');
    expect(afterLock.report.changes).toMatchObject({ mode: 'full', pagesKept: 0 });
    expect(afterLock.output).toMatch(/\[bundle\] .*route chunks/);
    expect(afterLock.output).not.toMatch(/route chunks \(cached\)/);

    // Another version installed than the lock file names (an install by hand, a stale node_modules).
    await unlink(join(project, 'node_modules/react-dom'));
    await cp(join(ROOT, 'node_modules/react-dom'), join(project, 'node_modules/react-dom'), { recursive: true });
    await edit('node_modules/react-dom/package.json', (text) => text.replace(/"version": "([^"]+)"/, '"version": "$1-local"'));
    const afterInstall = await build('site', '--verbose');
    expect(afterInstall.report.changes).toMatchObject({ mode: 'full', pagesKept: 0 });
    expect(afterInstall.output).toContain('a dependency');
    // The client is bundled again with what is installed, not taken from the cache made for the lock file.
    expect(afterInstall.output).toMatch(/\[bundle\] .*route chunks/);
    expect(afterInstall.output).not.toMatch(/route chunks \(cached\)/);
    // And with nothing changed since, incremental again, the bundle from the cache.
    const unchanged = await build('site');
    expect(unchanged.report.changes).toMatchObject({ mode: 'incremental', pagesRendered: 0 });
    expect(unchanged.output).toMatch(/\[bundle\] .*route chunks \(cached\)/);
  }, 300_000);
});

describe('an incremental build without a pinned SOURCE_DATE_EPOCH', () => {
  it('equals a full build of the same folder byte for byte, prerenderedAt included', async () => {
    await build('epoch');
    const feed = await readFile(join(dir, 'epoch/feeds/news.xml'), 'utf8');
    const slug = /<link>[^<]*\/news\/([^<]+)<\/link>/.exec(feed.slice(feed.indexOf('<item>')))![1]!;
    await writeFile(overrides, JSON.stringify({ news: [{ slug, title: 'An edited headline' }] }));
    const incremental = await build('epoch');
    expect(incremental.report.changes).toMatchObject({ mode: 'incremental' });
    expect(incremental.report.changes!.pagesRendered).toBeGreaterThan(0);
    const afterIncremental = await snapshotTree(join(dir, 'epoch'));
    const full = await build('epoch', '--full');
    expect(full.report.changes).toMatchObject({ mode: 'full' });
    expect(await snapshotTree(join(dir, 'epoch'))).toEqual(afterIncremental);
    const kept = JSON.parse(await readFile(join(dir, 'epoch/about/_payload.json'), 'utf8')) as { prerenderedAt: string };
    const edited = JSON.parse(await readFile(join(dir, `epoch/news/${slug}/_payload.json`), 'utf8')) as { prerenderedAt: string };
    expect(edited.prerenderedAt).toBe(kept.prerenderedAt);
    await writeFile(overrides, '{}');
  }, 300_000);
});

describe('an output folder the build state does not describe', () => {
  it('is rendered in full, with the reason under --verbose, when the folder was restored from elsewhere or a page was changed', async () => {
    await build('restored');
    expect((await build('restored')).report.changes).toMatchObject({ mode: 'incremental' });
    // A copy put in its place (a backup restored, a CI cache unpacked): same build id, same page count.
    await rename(join(dir, 'restored'), join(dir, 'restored-old'));
    await cp(join(dir, 'restored-old'), join(dir, 'restored'), { recursive: true });
    const afterRestore = await build('restored', '--verbose');
    expect(afterRestore.report.changes).toMatchObject({ mode: 'full' });
    expect(afterRestore.output).toContain('the output folder was replaced or restored');

    expect((await build('restored')).report.changes).toMatchObject({ mode: 'incremental' });
    // Every page edited by hand in place (same folder): the sampled ones show it.
    for (const file of (await listFiles(join(dir, 'restored'))).filter((f) => f.endsWith('index.html'))) {
      await writeFile(join(dir, 'restored', file), '<!doctype html><title>edited by hand</title>');
    }
    const afterEdit = await build('restored', '--verbose');
    expect(afterEdit.report.changes).toMatchObject({ mode: 'full' });
    expect(afterEdit.output).toMatch(/the output folder's \/\S* is not what the previous build wrote/);
    expect(await readFile(join(dir, 'restored/index.html'), 'utf8')).not.toContain('edited by hand');

    // One page's files deleted, and one feed: not among the sampled pages, yet never kept as missing.
    expect((await build('restored')).report.changes).toMatchObject({ mode: 'incremental' });
    const state = await readState(join(dir, 'restored'));
    const page = state.pages.map(([path]) => path).find((path) => path !== '/' && !state.sample.some(([sampled]) => sampled === path))!;
    await rm(join(dir, 'restored', htmlFileFor(page)));
    const afterDelete = await build('restored', '--verbose');
    expect(afterDelete.report.changes).toMatchObject({ mode: 'full' });
    expect(afterDelete.output).toContain(`the output folder's ${page} is missing or not the size the previous build wrote`);
    expect(await readFile(join(dir, 'restored', htmlFileFor(page)), 'utf8')).toContain('<!doctype html>');

    await rm(join(dir, 'restored/feeds/news.xml'));
    const afterFeed = await build('restored', '--verbose');
    expect(afterFeed.report.changes).toMatchObject({ mode: 'full' });
    expect(afterFeed.output).toContain("the output folder's /feeds/news.xml is missing");
    expect(await readFile(join(dir, 'restored/feeds/news.xml'), 'utf8')).toContain('<item>');
  }, 300_000);
});

describe('a client bundle that fails', () => {
  it('fails the build with BundleFailed from the bundle thread, naming the file, and keeps the previous output', async () => {
    await build('bundle-fails');
    const before = await snapshotTree(join(dir, 'bundle-fails'));
    // Build-only code in a page: rendering on the server takes it, the client bundle refuses it.
    const page = join(project, 'site/pages/courses.tsx');
    const source = await readFile(page, 'utf8');
    await writeFile(page, `import 'node:fs';\n${source}`);
    try {
      const result = await runCli(['build', '--out', join(dir, 'bundle-fails'), '--cache-dir', join(dir, 'cache')], {
        cwd: project,
        env: { CONTENT_OVERRIDES_FILE: overrides },
        script: join(project, 'bin/site.js'),
      });
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toMatch(
        /\[BundleFailed\][^\n]*site\/pages\/courses\.tsx imports 'node:fs', which is build-only code/,
      );
    } finally {
      await writeFile(page, source);
    }
    expect(await snapshotTree(join(dir, 'bundle-fails'))).toEqual(before);
  }, 300_000);
});
