import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSampleContent } from '../../backend/content/sample.ts';
import type { BuildReport } from '../../cli/report/report.ts';
import { runCli } from '../helpers/cli.ts';
import { snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * Incremental builds (issue 9): a build into a folder that holds the previous build of the same code and
 * options rewrites only what changed, and ends with exactly the output a full build would write.
 */

const EPOCH = '1700000000';
let dir: string;
let overrides: string;
const build = (out: string, ...flags: string[]): ReturnType<typeof runCli> =>
  runCli(['build', '--out', join(dir, out), '--cache-dir', join(dir, 'cache'), '--quiet', ...flags], {
    env: { SOURCE_DATE_EPOCH: EPOCH, CONTENT_OVERRIDES_FILE: overrides },
  });
const report = async (): Promise<BuildReport> => JSON.parse(await readFile(join(dir, 'build-report.json'), 'utf8')) as BuildReport;

// The newest article: it shows on the news list, the home page and the news feed.
let slug: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'build-incremental-'));
  await seedBundle(join(dir, 'cache'));
  overrides = join(dir, 'overrides.json');
  await writeFile(overrides, '{}');
  const first = await build('site');
  expect(first.code, first.stderr).toBe(0);
  const { changes } = await report();
  expect(changes).toMatchObject({ mode: 'full', pagesKept: 0 });
  expect(changes!.richText.cleaned).toBeGreaterThan(50);
  const feed = await readFile(join(dir, 'site/feeds/news.xml'), 'utf8');
  slug = /<link>[^<]*\/news\/([^<]+)<\/link>/.exec(feed.slice(feed.indexOf('<item>')))![1]!;
}, 240_000);

describe('a rebuild after one news item changed', () => {
  it('renders and rewrites only the item, the pages that show it, the feed and the build files', async () => {
    await writeFile(overrides, JSON.stringify({ news: [{ slug, title: 'A corrected headline', updatedAt: '2026-05-01T10:00:00.000Z' }] }));
    const result = await build('site');
    expect(result.code, result.stderr).toBe(0);
    const { changes } = await report();
    expect(changes!.mode).toBe('incremental');
    expect(changes!.pagesRendered).toBeGreaterThanOrEqual(3);
    expect(changes!.pagesRendered).toBeLessThan(10);
    // The edit touched no body: every rich text was cleaned in the first build and comes from the cache.
    expect(changes!.richText).toMatchObject({ cleaned: 0 });
    expect(changes!.richText.reused).toBeGreaterThan(50);
    expect(changes!.written).toEqual(
      expect.arrayContaining([
        `news/${slug}/index.html`,
        `news/${slug}/_payload.json`,
        'news/index.html',
        'index.html',
        'feeds/news.xml',
        'sitemap.xml',
        '_assets/builds/latest.json',
      ]),
    );
    // Nothing else: no other article, no event, no asset is written again.
    expect(
      changes!.written.filter(
        (f) => f.startsWith('events/') || f.startsWith('publications/') || (f.startsWith('_assets/') && !f.startsWith('_assets/builds/')),
      ),
    ).toEqual([]);
    expect(changes!.written.length).toBeLessThan(25);
    expect(await readFile(join(dir, `site/news/${slug}/index.html`), 'utf8')).toContain('A corrected headline');
  }, 240_000);

  it('ends with exactly the files a full build of the same content writes', async () => {
    const full = await build('full', '--full');
    expect(full.code, full.stderr).toBe(0);
    expect((await report()).changes!.mode).toBe('full');
    expect(await snapshotTree(join(dir, 'site'))).toEqual(await snapshotTree(join(dir, 'full')));
  }, 240_000);

  it('renders every page again when an option that every page carries changes', async () => {
    const result = await build('site', '--base-url', 'https://elsewhere.example');
    expect(result.code, result.stderr).toBe(0);
    expect((await report()).changes).toMatchObject({ mode: 'full', pagesKept: 0 });
  }, 240_000);
});

describe('a rebuild after a page that others link to was withdrawn', () => {
  it('warns about the links to it, as a full build does, though the previous output still holds its files', async () => {
    const [linking, linked] = loadSampleContent().news.filter((n) => n.status === 'PUBLISHED');
    const link = { slug: linking!.slug, body: `<p>See <a href="/news/${linked!.slug}">the earlier article</a>.</p>` };
    await writeFile(overrides, JSON.stringify({ news: [link] }));
    const first = await build('links');
    expect(first.code, first.stderr).toBe(0);
    expect((await report()).warnings).toEqual([]);

    await writeFile(overrides, JSON.stringify({ news: [link, { slug: linked!.slug, status: 'DRAFT' }] }));
    const second = await build('links');
    expect(second.code, second.stderr).toBe(0);
    const { changes, warnings } = await report();
    expect(changes!.mode).toBe('incremental');
    expect(changes!.removed).toContain(`news/${linked!.slug}/index.html`);
    expect(warnings.map((w) => [w.check, w.page])).toEqual([['link', `/news/${linking!.slug}`]]);
  }, 240_000);
});
