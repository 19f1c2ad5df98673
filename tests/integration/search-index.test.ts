import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer } from '../../backend/server.ts';
import { readBuild } from '../../cli/output/output.ts';
import { gqlData, loginToken } from '../backend/client.ts';
import { updateContent } from '../helpers/content-edits.ts';
import { runCli } from '../helpers/cli.ts';
import { readIndexFragments, type IndexedFragment } from '../helpers/search-index.ts';
import { listFiles, snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * Issue 21.1: `site build` writes the site search's index with the pages (cli/output/search-index.ts),
 * from the pages it renders, read back here from the real index's files: which pages are in it, under
 * which section and year, with which title and text; and `--no-search`.
 */

let root: string;
let out: string;
let fragments: IndexedFragment[];
const build = async (...args: string[]): Promise<string> => {
  const result = await runCli(['build', '--out', out, '--cache-dir', join(root, 'cache'), '--no-report', ...args]);
  expect(result.code, result.stdout + result.stderr).toBe(0);
  return result.stdout;
};
const payload = async <T>(path: string): Promise<T> =>
  (JSON.parse(await readFile(join(out, path, '_payload.json'), 'utf8')) as { data: T }).data;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-search-'));
  for (const cache of ['cache', 'cache-parts', 'cache-search']) await seedBundle(join(root, cache));
  out = join(root, 'site');
  await build();
  fragments = await readIndexFragments(out);
}, 180_000);

afterAll(() => rm(root, { recursive: true, force: true }));

describe('the search index a build writes', () => {
  it('holds every item page, about page, person, course and document, and no list, pagination, category, home, login or search page', async () => {
    const pages = (await readBuild(out)).meta.prerendered;
    const urls = new Set(fragments.map((f) => f.url));
    const items = pages.filter(
      (p) =>
        /^\/(news\/(?!page\/)[^/]+|events\/[^/]+\/(?!page$)[^/]+|publication\/[^/]+\/(?!page$)[^/]+|research\/(?!page\/)[^/]+|about(\/[^/]+)?)$/.test(
          p,
        ) && !/\/page\/\d+$/.test(p),
    );
    expect(items.length).toBeGreaterThan(100);
    for (const page of items) expect(urls, page).toContain(page);
    for (const url of [
      '/',
      '/news',
      '/news/page/2',
      '/events',
      '/events/lectures',
      '/publications',
      '/publication/articles',
      '/research',
      '/courses',
      '/documents',
      '/login',
      '/search',
    ])
      expect(urls, url).not.toContain(url);
    const { people } = await payload<{ people: { nodes: { slug: string; name: string }[] } }>('about/people');
    for (const person of people.nodes)
      expect(fragments.find((f) => f.url === `/about/people#c-person-${person.slug}`)?.meta.title, person.slug).toBe(person.name);
    const sections = (section: string): IndexedFragment[] => fragments.filter((f) => f.filters.section?.[0] === section);
    expect(sections('courses').length).toBeGreaterThan(5);
    for (const course of sections('courses')) expect(course.url).toMatch(/^\/courses(\/page\/\d+)?#c-course-/);
    expect(sections('documents').length).toBeGreaterThan(5);
    for (const doc of sections('documents')) expect(doc.url).toMatch(/^\/media\//);
    const entry = JSON.parse(await readFile(join(out, '_search/pagefind-entry.json'), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    expect(Object.values(entry.languages).reduce((n, l) => n + l.page_count, 0)).toBe(fragments.length);
  });

  it("files each result under its section and year, titled and dated as its page, with the page's own text and not its neighbours'", async () => {
    for (const fragment of fragments) {
      expect(fragment.filters.section, fragment.url).toHaveLength(1);
      expect(fragment.meta.title, fragment.url).toBeTruthy();
      if (fragment.meta.date) expect(fragment.filters.year, fragment.url).toEqual([fragment.meta.date.slice(0, 4)]);
    }
    const { newsItems } = await payload<{ newsItems: { nodes: { slug: string; title: string; date: string }[] } }>('news');
    const item = newsItems.nodes[0]!;
    const article = fragments.find((f) => f.url === `/news/${item.slug}`)!;
    expect(article).toMatchObject({
      filters: { section: ['news'], year: [item.date.slice(0, 4)] },
      meta: { title: item.title, date: item.date },
    });
    expect(article.content.startsWith(`${item.title}.`), article.content.slice(0, 80)).toBe(true);
    // Left out by the site's search.exclude: the trail, the date line above the title, the related news.
    for (const left of ['Home', 'Related news']) expect(article.content).not.toContain(left);
  });

  it("gives only the search page's policy WebAssembly", async () => {
    for (const file of (await listFiles(out)).filter((f) => f.endsWith('.html'))) {
      const html = await readFile(join(out, file), 'utf8');
      expect(html.includes('wasm-unsafe-eval'), file).toBe(file === 'search/index.html');
    }
  });

  it('is kept as it is by an update in place that changed no searched page, since building it again would give the same bytes', async () => {
    const before = await snapshotTree(join(out, '_search'));
    expect(await build()).toMatch(/\[search\] unchanged, kept: /);
    expect(await snapshotTree(join(out, '_search'))).toEqual(before);
  }, 180_000);

  it('is left out with --no-search, an update in place removes it, and the next build with search writes the same index again', async () => {
    const before = await snapshotTree(join(out, '_search'));
    const off = await build('--no-search');
    expect(off).not.toContain('[search]');
    expect(await listFiles(join(out, '_search')).catch(() => [])).toEqual([]);
    expect(await readFile(join(out, 'search/index.html'), 'utf8')).toContain('Search needs JavaScript');
    await build();
    expect(await snapshotTree(join(out, '_search'))).toEqual(before);
  }, 180_000);
});

describe('the search index of a large site, in partitions', () => {
  it('is cut into partitions holding what one index holds; an edit builds again only the partition of the page it changed, with the bytes of a full build', async () => {
    const backend = await startContentServer({ now: () => new Date('2026-06-01T12:00:00Z') });
    try {
      // Partitions of 30 pages: the sample site's 125 searched pages make 5.
      const env = { SITE_SEARCH_PARTITION_PAGES: '30', SOURCE_DATE_EPOCH: '1780000000' };
      const buildInto = async (dir: string, ...args: string[]): Promise<string> => {
        const result = await runCli(
          ['build', '--endpoint', backend.url, '--out', dir, '--cache-dir', join(root, 'cache-parts'), '--no-report', ...args],
          { env: { ...env, SITE_SEARCH_CACHE: 'off' } },
        );
        expect(result.code, result.stdout + result.stderr).toBe(0);
        return result.stdout;
      };
      const parted = join(root, 'parted');
      expect(await buildInto(parted)).toMatch(/\[search\] \d+ entries from \d+ pages in 5 partitions/);
      expect(JSON.parse(await readFile(join(parted, '_search/parts.json'), 'utf8'))).toEqual([
        '/_search/part-1/',
        '/_search/part-2/',
        '/_search/part-3/',
        '/_search/part-4/',
      ]);
      // Pagefind's code and WebAssembly once, in partition 0; each partition its own index.
      const files = await listFiles(join(parted, '_search'));
      expect(files.filter((f) => f.endsWith('pagefind.js'))).toEqual(['pagefind.js']);
      for (const n of [1, 2, 3, 4]) expect(files, `part-${n}`).toContain(`part-${n}/pagefind-entry.json`);
      // Every result the single index of the same content has, each in one partition only.
      const urls = (list: IndexedFragment[]) => list.map((f) => f.url);
      const inParts = await readIndexFragments(parted);
      expect(urls(inParts)).toEqual(urls(fragments));
      expect(new Set(urls(inParts)).size).toBe(inParts.length);

      const token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string; slug: string }[] } }>(
        backend,
        '{ newsItems(first: 1) { nodes { id slug } } }',
      );
      await updateContent(backend, token, 'NewsItem', newsItems.nodes[0]!.id, { title: 'Quasicrystalline retitled' });
      expect(await buildInto(parted)).toMatch(/\[search\] \d+ entries from \d+ pages \(1 of 5 partitions built, the others kept\)/);
      expect((await readIndexFragments(parted)).find((f) => f.url === `/news/${newsItems.nodes[0]!.slug}`)?.meta.title).toBe(
        'Quasicrystalline retitled',
      );
      const full = join(root, 'parted-full');
      await buildInto(full, '--full');
      expect(await snapshotTree(parted)).toEqual(await snapshotTree(full));
    } finally {
      await backend.close();
    }
  }, 300_000);

  it('is taken from the build cache by a full build, partition by partition, where the documents are those of a build before, with the bytes of indexing them', async () => {
    const backend = await startContentServer({ now: () => new Date('2026-06-01T12:00:00Z') });
    try {
      const cacheDir = join(root, 'cache-search');
      const buildInto = async (dir: string, env: Record<string, string> = {}, ...args: string[]): Promise<string> => {
        const result = await runCli(['build', '--endpoint', backend.url, '--out', dir, '--cache-dir', cacheDir, '--no-report', ...args], {
          env: { SITE_SEARCH_PARTITION_PAGES: '30', SOURCE_DATE_EPOCH: '1780000000', ...env },
        });
        expect(result.code, result.stdout + result.stderr).toBe(0);
        return result.stdout;
      };
      const entries = async (): Promise<string[]> =>
        (await readdir(join(cacheDir, 'search'))).filter((name) => name.endsWith('.pagefind')).sort();
      const first = join(root, 'cached-1');
      // Rendered on the main thread only, then on a render thread too: a page's documents are hashed where it is rendered, the same there and here.
      expect(await buildInto(first, {}, '--render-threads', '0')).toMatch(/\[search\] \d+ entries from \d+ pages in 5 partitions/);
      expect(await entries()).toHaveLength(5);

      // Every partition from the cache: the same bytes, and Pagefind not run.
      const second = join(root, 'cached-2');
      expect(await buildInto(second, {}, '--render-threads', '1')).toMatch(/\[search\] 5 of 5 partitions from the build cache: /);
      expect(await snapshotTree(join(second, '_search'))).toEqual(await snapshotTree(join(first, '_search')));

      // One item edited: its partition is indexed, the four others come from the cache, and the index is
      // the one a build without the cache writes.
      const token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
      const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string; slug: string }[] } }>(
        backend,
        '{ newsItems(first: 1) { nodes { id slug } } }',
      );
      await updateContent(backend, token, 'NewsItem', newsItems.nodes[0]!.id, { title: 'Quasicrystalline recached' });
      const edited = join(root, 'cached-3');
      expect(await buildInto(edited)).toMatch(/\[search\] \d+ entries from \d+ pages \(1 of 5 partitions built, 4 from the build cache\)/);
      expect((await readIndexFragments(edited)).find((f) => f.url === `/news/${newsItems.nodes[0]!.slug}`)?.meta.title).toBe(
        'Quasicrystalline recached',
      );
      const uncached = join(root, 'cached-off');
      expect(await buildInto(uncached, { SITE_SEARCH_CACHE: 'off' })).toMatch(/\[search\] \d+ entries from \d+ pages in 5 partitions/);
      expect(await snapshotTree(join(edited, '_search'))).toEqual(await snapshotTree(join(uncached, '_search')));
      // An update in place of the folder built before the edit: the edited partition from the cache, the others kept.
      expect(await buildInto(second)).toMatch(/\[search\] 1 of 5 partitions from the build cache, the others kept: /);
      expect(await snapshotTree(join(second, '_search'))).toEqual(await snapshotTree(join(uncached, '_search')));
      // The edited partition's old entry is still there (another folder may use it), up to as many as the index has partitions.
      expect(await entries()).toHaveLength(6);

      // A damaged entry, and one whose files would land outside its partition, are built again, not used.
      const names = await entries();
      for (const [i, name] of names.entries()) {
        const file = join(cacheDir, 'search', name);
        const entry = await readFile(file);
        if (i % 2 === 0) {
          entry.writeUInt8(entry.readUInt8(entry.length - 1) ^ 1, entry.length - 1);
          await writeFile(file, entry);
        } else {
          // Only the name of its first file changed, to one that leaves the site, and the entry's hash made
          // right again: what refuses it is the check of its names.
          const length = entry.readUInt32BE(0);
          const header = JSON.parse(entry.subarray(4, 4 + length).toString('utf8')) as { files: [string, number][] };
          header.files[0]![0] = '_search/../../escaped/pagefind-entry.json';
          const json = Buffer.from(JSON.stringify(header));
          const prefix = Buffer.alloc(4);
          prefix.writeUInt32BE(json.length);
          const body = Buffer.concat([prefix, json, entry.subarray(4 + length, entry.length - 32)]);
          await writeFile(file, Buffer.concat([body, createHash('sha256').update(body).digest()]));
        }
      }
      const rebuilt = join(root, 'cached-4');
      expect(await buildInto(rebuilt)).toMatch(/\[search\] \d+ entries from \d+ pages in 5 partitions/);
      expect(await snapshotTree(join(rebuilt, '_search'))).toEqual(await snapshotTree(join(uncached, '_search')));
      expect(await readdir(root)).not.toContain('escaped');
    } finally {
      await backend.close();
    }
  }, 400_000);
});
