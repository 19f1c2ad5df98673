import { describe, expect, it } from 'vitest';
import { findRoute, type RouteDefinition } from '../../../runtime/routes.ts';
import type { RouteDataContext, RouteEntry } from '../../../runtime/shared/route-data.ts';
import { categoryPages, eventsArchivePages, type EventLists } from '../../../site/build/event-pages.ts';
import { eventsPageCount, eventsPageStart } from '../../../site/data/event-timeline.ts';
import {
  archiveLayout,
  archiveWindow,
  isLaterPage,
  newerArchivePages,
  pageCount,
  pageHref,
  pageNumber,
  pageWindow,
} from '../../../site/data/paging.ts';
import { LIST_PAGE_SIZE, NEWS_PAGE_SIZE } from '../../../site/queries/document.ts';
import type { EventCardData } from '../../../site/queries/events.ts';
import { routeData } from '../../../site/routes.build.ts';
import { routes as siteRoutes } from '../../../site/routes.ts';
import { site } from './fixtures.ts';

/**
 * Lists scale: a list page embeds one page of items, later pages are prerendered at `{list}/page/{n}` from
 * a walk of the list query, and together the pages hold every item exactly once.
 */

const routes: readonly RouteDefinition[] = siteRoutes;

/** A backend whose list fields serve `count` numbered nodes per category, with offset cursors. */
function listBackend(field: string, count: number, categories: string[] = []): { ctx: RouteDataContext; calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  const ctx: RouteDataContext = {
    async request<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
      calls.push(variables);
      if (/Categor(y|ies)Slugs/.test(document)) return { publicationCategories: categories.map((slug) => ({ slug })) } as T;
      const prefix = typeof variables.category === 'string' ? `${variables.category}-` : '';
      const all = Array.from({ length: count }, (_, i) => ({
        id: `${prefix}${i}`,
        updatedAt: `2026-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z`,
      }));
      const start = typeof variables.after === 'string' ? Number(variables.after) : 0;
      const first = Number(variables.first ?? 20);
      const nodes = all.slice(start, start + first);
      const end = start + nodes.length;
      return { [field]: { nodes, totalCount: all.length, pageInfo: { hasNextPage: end < all.length, endCursor: String(end) } } } as T;
    },
  };
  return { ctx, calls };
}

async function collect(entries: AsyncIterable<RouteEntry>): Promise<RouteEntry[]> {
  const all: RouteEntry[] = [];
  for await (const entry of entries) all.push(entry);
  return all;
}

const nodesOf = (entry: RouteEntry | undefined, field: string): { id: string }[] =>
  (entry?.data as Record<string, { nodes: { id: string }[] }>)[field]?.nodes ?? [];

describe('later pages of a list', () => {
  it('asks for many pages of the list at once and prerenders every page after the first', async () => {
    const { ctx, calls } = listBackend('publications', 60);
    const entries = await collect(routeData['publications-page'].entries!(ctx));
    expect(entries.map((e) => e.params)).toEqual([{ page: '2' }, { page: '3' }]);
    // One request for all 60 items, in a multiple of the page size.
    expect(calls).toHaveLength(1);
    expect(Number(calls[0]!.first) % LIST_PAGE_SIZE).toBe(0);
    expect(nodesOf(entries[0], 'publications').map((n) => n.id)).toEqual(Array.from({ length: 24 }, (_, i) => String(24 + i)));
    expect(nodesOf(entries[1], 'publications')).toHaveLength(60 - 2 * LIST_PAGE_SIZE);
  });

  it('has no later pages for a list that fits on one page', async () => {
    const { ctx } = listBackend('documents', LIST_PAGE_SIZE);
    expect(await collect(routeData['documents-page'].entries!(ctx))).toEqual([]);
  });

  it('pages each publication category on its own', async () => {
    const { ctx } = listBackend('publications', LIST_PAGE_SIZE + 1, ['articles', 'books']);
    const entries = await collect(routeData['publication-category-page'].entries!(ctx));
    expect(entries.map((e) => e.params)).toEqual([
      { category: 'articles', page: '2' },
      { category: 'books', page: '2' },
    ]);
    expect(nodesOf(entries[1], 'publications').map((n) => n.id)).toEqual([`books-${LIST_PAGE_SIZE}`]);
  });

  it('dates a later page in the sitemap by its newest item', () => {
    const data = { newsItems: { nodes: [{ updatedAt: '2026-01-02T00:00:00Z' }, { updatedAt: '2026-03-01T00:00:00Z' }], totalCount: 2 } };
    expect(routeData['news-page'].lastmod!(data as never)).toBe('2026-03-01T00:00:00Z');
  });
});

describe('page numbers', () => {
  it('keeps page 1 at the list’s own path and puts later pages below it', () => {
    expect(pageHref('/news', 1)).toBe('/news');
    expect(pageHref('/news', 3)).toBe('/news/page/3');
    expect(pageNumber({})).toBe(1);
    expect(pageNumber({ page: '4' })).toBe(4);
  });

  it('accepts one spelling per later page, so no two URLs show the same page', () => {
    expect(['2', '10', '999999'].map(isLaterPage)).toEqual([true, true, true]);
    expect(['1', '0', '02', '-2', '2.5', 'two', '1000000', undefined].map(isLaterPage)).toEqual(Array(8).fill(false));
  });

  it('counts pages, an empty list still having its first', () => {
    expect([0, 1, 12, 13, 42].map((n) => pageCount(n, 12))).toEqual([1, 1, 1, 2, 4]);
  });

  it('shows the first, last and nearby pages, with a gap for the rest', () => {
    expect(pageWindow(1, 4)).toEqual([1, 2, 3, 4]);
    expect(pageWindow(6, 12)).toEqual([1, null, 5, 6, 7, null, 12]);
    expect(pageWindow(3, 12)).toEqual([1, 2, 3, 4, null, 12]);
  });

  it('routes later pages to their list and rejects page 1 and unknown categories', () => {
    const validate = (path: string): [string | undefined, boolean] => {
      const match = findRoute(routes, path);
      return [match?.route.id, match?.route.validate ? match.route.validate(match.params, site) : true];
    };
    expect(validate('/news/page/2')).toEqual(['news-page', true]);
    expect(validate('/events/page/2')).toEqual(['events-page', true]);
    expect(validate('/events/lectures/page/2')).toEqual(['event-category-page', true]);
    expect(validate('/publication/articles/page/3')).toEqual(['publication-category-page', true]);
    expect(validate('/publications/page/1')).toEqual(['publications-page', false]);
    // The news archive is numbered from its oldest page, which is page 1.
    expect(validate('/news/page/1')).toEqual(['news-page', true]);
    expect(validate('/news/page/01')).toEqual(['news-page', false]);
    expect(validate('/events/nope/page/2')).toEqual(['event-category-page', false]);
  });
});

describe('event list pages', () => {
  const category = (slug: string) => ({ slug, title: slug, description: '' });
  const event = (id: string, startsAt: string, cat = 'lectures'): EventCardData => ({
    id,
    slug: id,
    title: id,
    updatedAt: startsAt,
    startsAt,
    endsAt: startsAt,
    location: '',
    summary: '',
    category: category(cat),
  });
  // The API's order: soonest first. "Now" is between e4 and e5.
  const events = Array.from({ length: 10 }, (_, i) =>
    event(`e${i}`, `2026-0${Math.floor(i / 2) + 1}-1${i % 2}T10:00:00Z`, i % 3 === 0 ? 'concerts' : 'lectures'),
  );
  const upcoming = events.slice(5, 7).map(({ id, startsAt }) => ({ id, startsAt }));
  const lists: EventLists = { events, upcoming, categories: ['lectures', 'concerts', 'symposia'] };

  it('continues /events after the backend’s upcoming list: later upcoming events soonest first, then the past most recent first', () => {
    const pages = eventsArchivePages(lists, 3);
    expect(pages.map((p) => p.events.nodes.map((e) => e.id))).toEqual([
      ['e7', 'e8', 'e9'],
      ['e4', 'e3', 'e2'],
      ['e1', 'e0'],
    ]);
  });

  it('shows every event exactly once across the pages of /events, and counts the pages the same way the page does', () => {
    const pages = eventsArchivePages(lists, 3);
    const ids = [...upcoming.map((e) => e.id), ...pages.flatMap((p) => p.events.nodes.map((e) => e.id))];
    expect(ids.sort()).toEqual(events.map((e) => e.id).sort());
    expect(eventsPageCount(events.length, upcoming.length, 3)).toBe(1 + pages.length);
    expect(eventsPageStart(3, upcoming.length, 3)).toBe(upcoming.length + 3 + 1);
  });

  it('pages a category in the same order, and gives an empty category its first page', () => {
    const lectures = categoryPages(lists, 'lectures', 4);
    expect(lectures.map((p) => p.events.nodes.map((e) => e.id))).toEqual([
      ['e5', 'e7', 'e8', 'e4'],
      ['e2', 'e1'],
    ]);
    expect(lectures[0]?.events.totalCount).toBe(6);
    expect(lectures[0]?.home.upcomingEvents).toEqual(upcoming.slice(0, 1));
    expect(categoryPages(lists, 'symposia', 4)).toEqual([
      { home: { upcomingEvents: upcoming.slice(0, 1) }, events: { nodes: [], totalCount: 0 } },
    ]);
  });
});

describe('later pages of a keyed list, updated in place', () => {
  /** The news list's pages with their keys, from a full walk: what the previous build remembered. */
  async function remembered(count: number): Promise<Map<string, string>> {
    const entries = await collect(routeData['news-page'].entries!(listBackend('newsItems', count).ctx));
    expect(entries.every((e) => typeof e.key === 'string' && e.data !== undefined)).toBe(true);
    return new Map(entries.map((e) => [e.params.page!, e.key!]));
  }

  /** The same backend, counting which document each request sent, with `ctx.unchanged` as the build gives it. */
  function updating(count: number, saved: Map<string, string>, changedIds: readonly string[]) {
    const { ctx } = listBackend('newsItems', count);
    const sent: string[] = [];
    const keyed: RouteDataContext = {
      request: (document, variables) => {
        sent.push(`${/query (\w+)/.exec(document)![1]} ${String(variables?.after ?? null)}`);
        return ctx.request(document, variables);
      },
      unchanged: (params, key) =>
        saved.get(params.page!) === key &&
        !key
          .split('|')[0]!
          .split(' ')
          .some((id) => changedIds.includes(id)),
    };
    return { ctx: keyed, sent };
  }

  it('walks the keys alone when no page changed, and keeps every page unasked', async () => {
    const saved = await remembered(1000);
    const { ctx, sent } = updating(1000, saved, []);
    const entries = await collect(routeData['news-page'].entries!(ctx));
    expect(entries).toHaveLength(saved.size);
    expect(entries.every((e) => e.unchanged === true && e.data === undefined && e.key === saved.get(e.params.page!))).toBe(true);
    expect(sent).toEqual(['NewsIndexKeys null', 'NewsIndexKeys 480', 'NewsIndexKeys 960']);
  });

  it('asks for the one batch that holds an edited item, and gives its page with the key a full walk gives', async () => {
    const saved = await remembered(1000);
    const { ctx, sent } = updating(1000, saved, ['500']);
    const entries = await collect(routeData['news-page'].entries!(ctx));
    // The archive is numbered from its oldest end: 1,000 items are /news's 16 and 82 pages of 12 (archiveLayout).
    const page = String(82 - Math.floor((500 - 16) / NEWS_PAGE_SIZE));
    const asked = entries.filter((e) => !e.unchanged);
    expect(asked.map((e) => e.params.page)).toEqual([page]);
    expect(nodesOf(asked[0], 'newsItems').map((n) => n.id)).toContain('500');
    expect(asked[0]!.key).toBe(saved.get(page));
    expect(entries.map((e) => e.params.page)).toEqual([...saved.keys()]);
    // The keys' next batch is asked for while one is looked at, so the order of the requests is not fixed.
    expect(sent.sort()).toEqual(['NewsIndex 480', 'NewsIndexKeys 480', 'NewsIndexKeys 960', 'NewsIndexKeys null']);
  });

  it.each([
    [
      'reads the keys walk’s cursors otherwise',
      (variables: Record<string, unknown>) => ({
        ...variables,
        after: typeof variables.after === 'string' ? String(Number(variables.after) + 1) : null,
      }),
    ],
    ['gives fewer items per request than asked', (variables: Record<string, unknown>) => ({ ...variables, first: 100 })],
  ])('walks the list whole when its query %s, so no page is made of two views of the list', async (_what, skew) => {
    const saved = await remembered(1000);
    const { ctx } = updating(1000, saved, ['500']);
    // The list query answers otherwise than the keys query would for the same cursor.
    const skewed: RouteDataContext = {
      ...ctx,
      request: (document, variables) => ctx.request(document, /query NewsIndex\(/.test(document) ? skew(variables ?? {}) : variables),
    };
    // A walk that skips items fails as a whole walk does (an archive page is placed by the count), never half-kept.
    const run = (c: RouteDataContext) => collect(routeData['news-page'].entries!(c)).catch((error: Error) => error.message);
    const entries = await run(skewed);
    const plain = await run({ request: skewed.request });
    expect(entries).toEqual(plain);
    if (typeof entries !== 'string') expect(entries.some((e) => e.unchanged)).toBe(false);
  });

  it('asks again for the pages an added item shifts, and their keys differ', async () => {
    const saved = await remembered(1000);
    const { ctx } = updating(1001, saved, ['1000']);
    const entries = await collect(routeData['news-page'].entries!(ctx));
    // One more item: the collection's size is in every page's key, so none is kept.
    expect(entries.filter((e) => e.unchanged)).toEqual([]);
    expect(entries.every((e) => e.key !== saved.get(e.params.page!))).toBe(true);
  });
});

describe('the news archive, numbered from its oldest article', () => {
  /** `n` article ids, newest first (the API's order): `a{from + n - 1}` … `a{from}`, a0 the oldest. */
  const articles = (n: number): string[] => Array.from({ length: n }, (_, i) => `a${n - 1 - i}`);

  /** A backend whose news list is `ids` (newest first), with offset cursors, recording each request. */
  function newsBackend(ids: readonly string[], { totalCount = ids.length } = {}) {
    const sent: string[] = [];
    const ctx: RouteDataContext = {
      async request<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
        sent.push(`${/query (\w+)/.exec(document)![1]} ${String(variables.after ?? null)}`);
        const start = typeof variables.after === 'string' ? Number(variables.after) : 0;
        const nodes = ids.slice(start, start + Number(variables.first ?? 20)).map((id) => ({ id, updatedAt: '2026-01-01T00:00:00Z' }));
        const end = start + nodes.length;
        return { newsItems: { nodes, totalCount, pageInfo: { hasNextPage: end < ids.length, endCursor: String(end) } } } as T;
      },
    };
    return { ctx, sent };
  }

  /** Every archive page of a full walk, by number. */
  async function walk(ids: readonly string[]): Promise<Map<string, RouteEntry>> {
    const entries = await collect(routeData['news-page'].entries!(newsBackend(ids).ctx));
    return new Map(entries.map((e) => [e.params.page!, e]));
  }

  /** An update in place after the previous build's walk `before`, as the build runs it (ctx.unchanged compares keys). */
  async function update(ids: readonly string[], before: Map<string, RouteEntry>) {
    const { ctx, sent } = newsBackend(ids);
    const entries = await collect(
      routeData['news-page'].entries!({ ...ctx, unchanged: (params, key) => before.get(params.page!)?.key === key }),
    );
    return { entries, sent, asked: entries.filter((e) => !e.unchanged).map((e) => e.params.page) };
  }

  it('fills every archive page, and shows the rest, newest, on the list’s own path', () => {
    expect([0, 11, 12, 23, 24, 35, 36, 1000].map((n) => archiveLayout(n, 12))).toEqual([
      { newest: 0, pages: 0 },
      { newest: 11, pages: 0 },
      { newest: 12, pages: 0 },
      { newest: 23, pages: 0 },
      { newest: 12, pages: 1 },
      { newest: 23, pages: 1 },
      { newest: 12, pages: 2 },
      { newest: 16, pages: 82 },
    ]);
  });

  it('takes a totalCount that is no count as none, and ends however large the page numbers', () => {
    for (const total of [NaN, -1, 2.5, 1.1e17, 2 ** 31, undefined as unknown as number])
      expect(archiveLayout(total, 12)).toEqual({ newest: 0, pages: 0 });
    expect(archiveLayout(2 ** 31 - 1, 12).pages).toBe(178956969);
    // Past 2^53 a page number counted up stops changing: the window is made by offsets.
    expect(pageWindow(2 ** 53, 2 ** 53)).toEqual([1, null, 2 ** 53 - 1, 2 ** 53]);
  });

  it('links each archive page to what its own number and up to three newer pages decide', () => {
    // Page 40 of 82: the list's own path ("Latest", the top) is shown beyond a gap, as on page 40 of 500.
    expect(archiveWindow(40, 40 + newerArchivePages(40, 82) + 1)).toEqual([44, null, 41, 40, 39, null, 1]);
    expect(archiveWindow(40, 40 + newerArchivePages(40, 500) + 1)).toEqual([44, null, 41, 40, 39, null, 1]);
    // The newest archive pages, and the list's own path (its number is the top).
    expect(archiveWindow(82, 82 + newerArchivePages(82, 82) + 1)).toEqual([83, 82, 81, null, 1]);
    expect(archiveWindow(80, 80 + newerArchivePages(80, 82) + 1)).toEqual([83, 82, 81, 80, 79, null, 1]);
    expect(archiveWindow(83, 83)).toEqual([83, 82, null, 1]);
  });

  it('puts the oldest articles on page 1 and every article on exactly one page', async () => {
    const ids = articles(1000);
    const pages = await walk(ids);
    expect([...pages.keys()]).toEqual(Array.from({ length: 82 }, (_, i) => String(82 - i)));
    expect(nodesOf(pages.get('1'), 'newsItems').map((n) => n.id)).toEqual(articles(12));
    const shown = [...ids.slice(0, 16), ...[...pages.values()].flatMap((e) => nodesOf(e, 'newsItems').map((n) => n.id))];
    expect(shown).toEqual(ids);
    // No page carries the collection's size, which every added article would change.
    const data = pages.get('40')!.data as { newsItems: Record<string, unknown>; archive: { newer: number } };
    expect(Object.keys(data.newsItems).sort()).toEqual(['nodes', 'pageInfo']);
    expect(data.archive).toEqual({ newer: 3 });
  });

  it('keeps every archive page when an article is added or deleted at the newest end, asking for the keys alone', async () => {
    const before = await walk(articles(1000));
    const added = await update(['added', ...articles(1000)], before);
    expect(added.asked).toEqual([]);
    expect(added.entries).toHaveLength(82);
    expect(added.sent.every((request) => request.startsWith('NewsIndexKeys '))).toBe(true);
    const deleted = await update(articles(999), before);
    expect(deleted.asked).toEqual([]);
  });

  it('asks only for the pages a newly filled page moves, and gives them as a full walk does', async () => {
    // 1,007 articles: /news shows 23; one more fills archive page 83, and pages 80-82 link to one more newer page.
    const before = await walk(articles(1007));
    const ids = ['added', ...articles(1007)];
    const { entries, asked, sent } = await update(ids, before);
    expect(asked).toEqual(['83', '82', '81', '80']);
    const full = await walk(ids);
    for (const entry of entries.filter((e) => !e.unchanged)) expect(entry).toEqual(full.get(entry.params.page!));
    expect(sent.filter((request) => request.startsWith('NewsIndex ')).length).toBeLessThanOrEqual(2);
  });

  it('asks for the one batch that holds an edited article in the middle', async () => {
    const ids = articles(1000);
    const before = await walk(ids);
    // The build keeps a page only when no article on it changed: here the one whose id is a500.
    const { ctx, sent } = newsBackend(ids);
    const entries = await collect(
      routeData['news-page'].entries!({
        ...ctx,
        unchanged: (params, key) => before.get(params.page!)?.key === key && !key.split('|')[0]!.split(' ').includes('a500'),
      }),
    );
    const asked = entries.filter((e) => !e.unchanged);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toEqual(before.get(asked[0]!.params.page!));
    expect(nodesOf(asked[0], 'newsItems').map((n) => n.id)).toContain('a500');
    expect(sent.filter((request) => request.startsWith('NewsIndex '))).toHaveLength(1);
  });

  it('places the pages by what the list lists, when the backend counts a draft the build drops', async () => {
    // 100 listed, 101 counted: 7 pages (as /news counts them from totalCount), each full, page 1 the oldest 12.
    const entries = await collect(routeData['news-page'].entries!(newsBackend(articles(100), { totalCount: 101 }).ctx));
    expect(entries.map((e) => e.params.page)).toEqual(['7', '6', '5', '4', '3', '2', '1']);
    expect(nodesOf(entries.at(-1), 'newsItems').map((n) => n.id)).toEqual(articles(12));
    expect(entries.every((e) => nodesOf(e, 'newsItems').length === 12)).toBe(true);
  });

  it('walks the list whole when the backend refuses one page more than a batch, as a backend capping `first` at 480 would', async () => {
    const ids = articles(1000);
    const before = await walk(ids);
    const { ctx } = newsBackend(ids);
    const capped: RouteDataContext = {
      request: (document, variables) =>
        Number(variables?.first) > 480
          ? Promise.reject(new Error('Argument "first" must be at most 480'))
          : ctx.request(document, variables),
      unchanged: (params, key) => before.get(params.page!)?.key === key && !key.split('|')[0]!.split(' ').includes('a500'),
    };
    const entries = await collect(routeData['news-page'].entries!(capped));
    expect(entries).toEqual([...before.values()]);
  });

  it('fails when the list lists more items than its totalCount leaves room for, or its totalCount is no count', async () => {
    // 200 listed, 50 counted: /news would show 14 and the 3 pages 36, and 150 articles would be on no page.
    await expect(collect(routeData['news-page'].entries!(newsBackend(articles(200), { totalCount: 50 }).ctx))).rejects.toThrow(
      /counts 50 items \(totalCount\) but lists 200 to the build, more than the 3 archive pages the count gives and \/news hold/,
    );
    await expect(
      collect(routeData['news-page'].entries!(newsBackend(articles(200), { totalCount: 'n/a' as unknown as number }).ctx)),
    ).rejects.toThrow(/counts n\/a items \(totalCount\) but lists 200 to the build: its totalCount is not a count/);
  });

  it('fails and says what to do when the list lists too few items for the pages its totalCount gives', async () => {
    // 13 drafts counted but not listed: 9 pages by the count, 107 items cannot fill them.
    await expect(collect(routeData['news-page'].entries!(newsBackend(articles(107), { totalCount: 120 }).ctx))).rejects.toThrow(
      /counts 120 items \(totalCount\) but lists 107 to the build, too few for the 9 archive pages[\s\S]*x-content-perspective: published/,
    );
  });

  it('leaves no request behind when the build stops reading after the first page', async () => {
    const { ctx } = newsBackend(articles(1000));
    let open = 0;
    const counting: RouteDataContext = {
      async request<T>(document: string, variables?: Record<string, unknown>): Promise<T> {
        open++;
        try {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return await ctx.request<T>(document, variables);
        } finally {
          open--;
        }
      },
    };
    const pages = routeData['news-page'].entries!(counting)[Symbol.asyncIterator]();
    expect((await pages.next()).done).toBe(false);
    await pages.return!(undefined);
    expect(open).toBe(0);
  });

  /** A backend whose list has one more article at its newest end each time its keys are walked, `changes` times. */
  function changingBackend(changes: number) {
    let walks = 0;
    const ids = (): string[] => [...Array.from({ length: Math.min(walks, changes) }, (_, i) => `new${i}`), ...articles(100)];
    const ctx: RouteDataContext = {
      request<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
        if (/query NewsIndexKeys/.test(document) && variables.after == null) walks++;
        // The full walk sees the list one edit later than the keys walk did.
        const list = /query NewsIndex\(/.test(document) && walks <= changes ? [`new${walks}`, ...ids()] : ids();
        return newsBackend(list).ctx.request<T>(document, variables);
      },
    };
    return { ctx, walks: () => walks };
  }

  it('walks again when the list changes between the keys walk and the full walk, and says so when it keeps changing', async () => {
    const settles = changingBackend(1);
    const entries = await collect(routeData['news-page'].entries!(settles.ctx));
    expect(settles.walks()).toBe(2);
    expect(entries.map((e) => e.params.page)).toEqual(['7', '6', '5', '4', '3', '2', '1']);
    const busy = changingBackend(10);
    await expect(collect(routeData['news-page'].entries!(busy.ctx))).rejects.toThrow(
      /changed while the build walked it \(an item added, moved or deleted\): build again/,
    );
    expect(busy.walks()).toBe(3);
  });
});

describe('every keyed list', () => {
  it.each([
    ['news-page', 'newsItems'],
    ['publications-page', 'publications'],
    ['courses-page', 'courses'],
    ['research-page', 'researchProjects'],
    ['documents-page', 'documents'],
  ] as const)(
    '%s: a full walk gives each page a key, and an update in place with nothing changed walks the keys alone',
    async (routeId, field) => {
      const full = await collect(routeData[routeId].entries!(listBackend(field, 700).ctx));
      expect(full.length).toBeGreaterThan(1);
      const saved = new Map(full.map((e) => [e.params.page!, e.key!]));
      expect([...saved.values()].every((key) => typeof key === 'string' && key.length > 0)).toBe(true);
      const { ctx } = listBackend(field, 700);
      const operations: string[] = [];
      const kept = await collect(
        routeData[routeId].entries!({
          request: (document, variables) => {
            operations.push(/query (\w+)/.exec(document)![1]!);
            return ctx.request(document, variables);
          },
          unchanged: (params, key) => saved.get(params.page!) === key,
        }),
      );
      expect(kept.map((e) => e.params.page)).toEqual([...saved.keys()]);
      expect(kept.every((e) => e.unchanged === true)).toBe(true);
      expect(operations.every((operation) => operation.endsWith('Keys'))).toBe(true);
    },
  );
});
