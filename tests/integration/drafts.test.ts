import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSampleContent } from '../../backend/content/sample.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { dropDrafts } from '../../cli/content/drafts.ts';
import type { BuildReport } from '../../cli/report/report.ts';
import { loginToken } from '../backend/client.ts';
import { runCli } from '../helpers/cli.ts';
import { startFaultServer } from '../helpers/fault-server.ts';
import { snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * Drafts are never published by accident (issue 16.7): a build with an editor's token writes exactly
 * what a build without one writes; --drafts publishes them on purpose.
 */

const EPOCH = '1767225600';
let backend: ContentServer;
let token: string;
let dir: string;
const sample = loadSampleContent();
const draftNews = sample.news.filter((n) => n.status === 'DRAFT');

beforeAll(async () => {
  backend = await startContentServer();
  token = await loginToken(backend, 'editor@institute.example', 'preview-editor');
  dir = await mkdtemp(join(tmpdir(), 'site-drafts-'));
  await seedBundle(join(dir, 'cache'));
});

afterAll(async () => {
  await backend?.close();
});

async function build(
  name: string,
  env: Record<string, string>,
  ...flags: string[]
): Promise<{ out: string; report: BuildReport; stdout: string }> {
  const out = join(dir, name);
  const report = join(dir, `${name}.json`);
  const result = await runCli(
    ['build', '--endpoint', backend.url, '--out', out, '--cache-dir', join(dir, 'cache'), '--report', report, ...flags],
    { env: { SOURCE_DATE_EPOCH: EPOCH, GRAPHQL_TOKEN: '', SITE_SEARCH_PARTITION_PAGES: '30', ...env } },
  );
  expect(result.code, result.stderr).toBe(0);
  return { out, report: JSON.parse(await readFile(report, 'utf8')) as BuildReport, stdout: result.stdout + result.stderr };
}

describe('a build with an editor token', () => {
  it('the sample content has drafts of several types', () => {
    const types = Object.entries(sample).filter(
      ([, list]) => Array.isArray(list) && (list as { status?: string }[]).some((item) => item.status === 'DRAFT'),
    );
    expect(types.length).toBeGreaterThanOrEqual(3);
    expect(draftNews.length).toBeGreaterThan(0);
  });

  it('writes exactly the files of a build without a token, and --drafts publishes the drafts on purpose', async () => {
    const anonymous = await build('anonymous', {});
    const editor = await build('editor', { GRAPHQL_TOKEN: token });
    expect(editor.report.drafts).toEqual({ published: false, leftOut: 0 });
    const [a, b] = await Promise.all([snapshotTree(anonymous.out), snapshotTree(editor.out)]);
    expect(Object.keys(b).sort()).toEqual(Object.keys(a).sort());
    expect(b).toEqual(a);
    const text = (out: string, file: string): Promise<string> => readFile(join(out, file), 'utf8');
    for (const draft of draftNews) {
      expect(b[`news/${draft.slug}/index.html`]).toBeUndefined();
      expect(await text(editor.out, 'sitemap.xml')).not.toContain(draft.slug);
      expect(await text(editor.out, 'news/index.html')).not.toContain(draft.slug);
      expect(await text(editor.out, 'feeds/news.xml')).not.toContain(draft.slug);
    }

    // The public builds' search index is kept in the build cache; a drafts build's text never is, nor does it take from there.
    const searchCache = async (): Promise<string[]> => (await readdir(join(dir, 'cache', 'search')).catch(() => [] as string[])).sort();
    const publicIndex = await searchCache();
    expect(publicIndex.length).toBeGreaterThan(0);
    expect(editor.stdout).toMatch(/\[search\].*from the build cache/);
    const withDrafts = await build('with-drafts', { GRAPHQL_TOKEN: token }, '--drafts');
    expect(withDrafts.stdout).not.toContain('from the build cache');
    expect(await searchCache()).toEqual(publicIndex);
    expect(withDrafts.report.drafts).toEqual({ published: true, leftOut: 0 });
    const c = await snapshotTree(withDrafts.out);
    // In partitions of 30 pages, some hold no draft and so the same documents as the public build's,
    // whose entries the cache holds: a drafts build that looked there would have taken those.
    const partition = (tree: Record<string, string>, n: number): string =>
      JSON.stringify(
        Object.entries(tree)
          .filter(([file]) => file.startsWith(`_search/part-${n}/`))
          .sort(),
      );
    const same = [1, 2, 3, 4].filter((n) => partition(c, n) !== '[]' && partition(c, n) === partition(b, n));
    expect(same.length).toBeGreaterThan(0);
    for (const draft of draftNews) {
      expect(c[`news/${draft.slug}/index.html`]).toBeDefined();
      expect(await text(withDrafts.out, `news/${draft.slug}/index.html`)).toContain(draft.title.replace(/&/g, '&amp;'));
      expect(await text(withDrafts.out, 'sitemap.xml')).toContain(draft.slug);
    }
    expect(withDrafts.stdout).toContain('drafts are published (--drafts)');
  }, 240_000);
});

describe('a backend that returns drafts whatever the build asks', () => {
  it('has every draft dropped where it enters the build, and says how many', async () => {
    const faults = await startFaultServer();
    try {
      // The proxy marks the first published article a draft in every answer that carries it, its keys' too.
      const victim = sample.news.find((n) => n.status === 'PUBLISHED')!;
      const mark = (value: unknown): void => {
        if (Array.isArray(value)) value.forEach(mark);
        else if (value && typeof value === 'object') {
          // By slug, or by id where an answer has no slug (a list's keys: ids and statuses only).
          const { slug, id } = value as { slug?: string; id?: string };
          if ((slug === victim.slug || (slug === undefined && id === victim.id)) && 'status' in value)
            (value as { status: string }).status = 'DRAFT';
          Object.values(value).forEach(mark);
        }
      };
      faults.setRules([{ operation: '*', fault: { kind: 'edit', edit: (data) => mark(data) } }]);
      const out = join(dir, 'safety-net');
      const report = join(dir, 'safety-net.json');
      const result = await runCli(
        ['build', '--endpoint', faults.url, '--out', out, '--cache-dir', join(dir, 'cache'), '--report', report],
        { env: { SOURCE_DATE_EPOCH: EPOCH } },
      );
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(result.stdout + result.stderr).toMatch(/\[drafts\] 1 draft left out/);
      expect((JSON.parse(await readFile(report, 'utf8')) as BuildReport).drafts).toEqual({ published: false, leftOut: 1 });
      const tree = await snapshotTree(out);
      expect(tree[`news/${victim.slug}/index.html`]).toBeUndefined();
      for (const file of Object.keys(tree).filter((f) => /\.(html|json|xml|ics)$/.test(f))) {
        expect(await readFile(join(out, file), 'utf8'), file).not.toContain(`/news/${victim.slug}`);
      }
    } finally {
      await faults.close();
    }
  }, 180_000);

  it('drops drafts from lists and as single items, copying only what changes', () => {
    const seen = new Set<string>();
    const clean = { a: 1 };
    const data = {
      list: [
        { id: '1', status: 'PUBLISHED' },
        { id: '2', status: 'DRAFT' },
      ],
      item: { id: '3', status: 'DRAFT' },
      other: clean,
    };
    expect(dropDrafts(data, seen)).toEqual({ list: [{ id: '1', status: 'PUBLISHED' }], item: null, other: clean });
    expect(dropDrafts(data, seen).other).toBe(clean);
    expect([...seen].sort()).toEqual(['2', '3']);
    expect(dropDrafts(clean, seen)).toBe(clean);
  });
});

describe('media downloads', () => {
  it("carry the editor's token only when drafts are published on purpose (--drafts): the media of published items need none", async () => {
    const proxy = await startFaultServer();
    try {
      const editorToken = await loginToken({ url: proxy.url } as ContentServer, 'editor@institute.example', 'preview-editor');
      const run = async (name: string, ...flags: string[]) =>
        runCli(
          [
            'build',
            '--endpoint',
            proxy.url,
            '--out',
            join(dir, name),
            '--cache-dir',
            await seedBundle(join(dir, `${name}-cache`)),
            '--no-report',
            '--quiet',
            ...flags,
          ],
          { env: { GRAPHQL_TOKEN: editorToken } },
        );
      expect((await run('media-published')).code).toBe(0);
      expect(proxy.media.length).toBeGreaterThan(10);
      expect(proxy.media.filter((m) => m.authorization !== null)).toEqual([]);
      proxy.media.length = 0;
      expect((await run('media-drafts', '--drafts')).code).toBe(0);
      expect(proxy.media.length).toBeGreaterThan(10);
      expect(proxy.media.every((m) => m.authorization === `Bearer ${editorToken}`)).toBe(true);
    } finally {
      await proxy.close();
    }
  }, 240_000);
});
