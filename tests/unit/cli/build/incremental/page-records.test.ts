import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pageHash, type PageRecordForState } from '../../../../../cli/build/incremental/build-state.ts';
import { keptPages } from '../../../../../cli/build/incremental/kept-pages.ts';
import { BuiltPaths, PageRecords } from '../../../../../cli/build/incremental/page-records.ts';
import { lastmodOf, queryPages, type PageRecord } from '../../../../../cli/content/query.ts';
import type { PageJob } from '../../../../../cli/content/crawl.ts';
import type { PageDone, PageRenderer } from '../../../../../cli/render/page-renderer.ts';
import { createPageDispatcher, type RenderThreads } from '../../../../../cli/render/render-threads.ts';
import type { RouteDefinition } from '../../../../../runtime/routes.ts';
import type { RouteDataDefinition } from '../../../../../runtime/shared/route-data.ts';

describe('PageRecords', () => {
  it('gives back every record as it was pushed, and the sitemap of the pages not noindex', () => {
    const records: [string, PageRecordForState][] = [
      [
        '/',
        {
          hash: 'h0',
          noindex: false,
          lastmod: '2026-01-02T03:04:05Z',
          bytes: 1234,
          depends: undefined,
          media: undefined,
          notes: undefined,
        },
      ],
      [
        '/news/a',
        {
          hash: 'h1',
          noindex: false,
          lastmod: undefined,
          bytes: 0,
          depends: 'news\nid-1 id-2 ',
          media: '/media/a.png\n/media/b.png',
          notes: ['2026-01-01'],
        },
      ],
      ['/search', { hash: 'h2', noindex: true, lastmod: '2026-01-03', bytes: 99, depends: undefined, media: '', notes: [] }],
      [
        '/events/e',
        {
          hash: 'h3 — é',
          noindex: false,
          lastmod: '2026-01-04',
          bytes: 7,
          depends: 'event\n',
          media: '',
          notes: [null, '2026-02-01', { summary: 'A \ud800 talk', categories: ['x'] }],
        },
      ],
    ];
    const packed = new PageRecords();
    for (const [, record] of records) packed.push(record);
    const pages = { path: (i: number) => records[i]![0] };
    expect(packed.length).toBe(4);
    records.forEach(([, record], i) => expect(packed.at(i)).toEqual(record));
    expect(packed.at(2).notes).toEqual([]);
    expect(packed.at(0).notes).toBeUndefined();
    expect([...packed.sitemap(pages)]).toEqual([
      { path: '/', lastmod: '2026-01-02T03:04:05Z' },
      { path: '/news/a' },
      { path: '/events/e', lastmod: '2026-01-04' },
    ]);
  });

  it('keeps the crawl order of paths with their routes', () => {
    const built = new BuiltPaths();
    for (let i = 0; i < 3000; i++) built.push(`/p/${i}`, i % 5);
    expect(built.length).toBe(3000);
    const all = [...built];
    expect(all[2999]).toEqual({ path: '/p/2999', route: 4 });
    expect(all.slice(0, 2)).toEqual([
      { path: '/p/0', route: 0 },
      { path: '/p/1', route: 1 },
    ]);
  });
});

describe("a page's lastmod", () => {
  it('is a string from the backend, or none: a number, an object or null is none', async () => {
    expect([lastmodOf('2026-01-02'), lastmodOf(1775908800000), lastmodOf({}), lastmodOf(null), lastmodOf(undefined)]).toEqual([
      '2026-01-02',
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const route = { id: 'news-article', path: '/news/:slug' } as unknown as RouteDefinition;
    const routeData = {
      'news-article': {
        query: 'query NewsArticle { x }',
        lastmod: (data: { updatedAt: unknown }) => data.updatedAt,
      } as unknown as RouteDataDefinition,
    };
    async function* jobs(): AsyncGenerator<PageJob> {
      yield { route, path: '/news/a', params: { slug: 'a' }, data: { updatedAt: 1775908800000 } };
      yield { route, path: '/news/b', params: { slug: 'b' }, data: { updatedAt: '2026-04-11T12:00:00Z' } };
    }
    const records: PageRecord[] = [];
    for await (const record of queryPages(
      jobs(),
      routeData,
      { request: () => Promise.reject(new Error('not asked')) } as never,
      1,
      [],
      (html) => html,
    ))
      records.push(record);
    expect(records.map((r) => r.lastmod)).toEqual([undefined, '2026-04-11T12:00:00Z']);
  });

  it('is none as well for a page read back from the previous output, whose data kept the number', async () => {
    const route = { id: 'news-article', path: '/news/:slug' } as unknown as RouteDefinition;
    const routeData = {
      'news-article': {
        query: 'query NewsArticle { x }',
        lastmod: (data: { updatedAt: unknown }) => data.updatedAt,
      } as unknown as RouteDataDefinition,
    };
    const outDir = await mkdtemp(join(tmpdir(), 'kept-lastmod-'));
    try {
      const pages = [];
      for (const [slug, updatedAt] of [
        ['a', 1775908800000],
        ['b', '2026-04-11T12:00:00Z'],
      ] as const) {
        const path = `/news/${slug}`;
        const json = JSON.stringify({ updatedAt });
        await mkdir(join(outDir, 'news', slug), { recursive: true });
        await writeFile(
          join(outDir, 'news', slug, '_payload.json'),
          `{"v":1,"buildId":"b","path":"${path}","data":${json},"prerenderedAt":"2026-04-11T12:00:00Z"}`,
        );
        pages.push({ path, routeId: route.id, hash: pageHash(route.id, path, json) });
      }
      const records: PageRecord[] = [];
      for await (const record of keptPages(outDir, pages, [route], routeData)) records.push(record);
      expect(records.map((r) => [r.job.path, r.lastmod])).toEqual([
        ['/news/a', undefined],
        ['/news/b', '2026-04-11T12:00:00Z'],
      ]);
      // And the records take it without failing the build.
      const packed = new PageRecords();
      for (const record of records)
        packed.push({
          hash: record.hash!,
          noindex: false,
          lastmod: record.lastmod,
          bytes: 1,
          depends: undefined,
          media: undefined,
          notes: undefined,
        });
      expect(packed.at(0).lastmod).toBeUndefined();
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  });
});

describe('the page dispatcher', () => {
  it("fails the build with the error when taking a thread's pages throws, not with an unhandled rejection", async () => {
    const done = (path: string): PageDone => ({
      path,
      routeId: 'r',
      hash: 'h',
      noindex: false,
      bytes: 1,
      inspection: {
        facts: { title: null, links: [], ids: [], imagesWithoutAlt: [] },
        htmlChars: 1,
        payloadChars: 0,
        payloadBytesOverBudget: null,
      },
    });
    const threads = {
      hasReady: () => true,
      trySend: (tasks: { path: string }[]) => Promise.resolve(tasks.map((t) => done(t.path))),
    } as unknown as RenderThreads;
    const local: PageRenderer = { render: (task) => Promise.resolve(done(task.path)), drain: () => Promise.resolve() };
    const broken = new Error('taking the pages failed');
    const dispatcher = createPageDispatcher(local, threads, (_pages, threaded) => {
      if (threaded) throw broken;
    });
    // The failure comes out of the next page handed on, or out of finish().
    const run = async (): Promise<void> => {
      for (let i = 0; i < 40; i++) await dispatcher.page({ routeId: 'r', path: `/p/${i}`, params: {}, json: '{}', hash: 'h' }, {});
      await dispatcher.finish();
    };
    const unhandled: unknown[] = [];
    const note = (reason: unknown): void => void unhandled.push(reason);
    process.prependListener('unhandledRejection', note);
    try {
      await expect(run()).rejects.toBe(broken);
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', note);
    }
    expect(unhandled).toEqual([]);
  });
});
