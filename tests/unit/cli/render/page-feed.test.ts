import { describe, expect, it } from 'vitest';
import type { OutputCollector } from '../../../../runtime/shared/route-data.ts';
import { createPageFeed } from '../../../../cli/render/page-feed.ts';
import type { SearchedPage, SearchFunction } from '../../../../cli/render/search-documents.ts';

/** An output that notes each page's title, and records what it was shown. */
function titles(): OutputCollector & { seen: string[] } {
  const seen: string[] = [];
  return {
    seen,
    page: ({ path, data }) => (seen.push(`page ${path}`), (data as { title?: string }).title ?? null),
    kept: (note, { path }) => void seen.push(`kept ${path} ${JSON.stringify(note)}`),
    files: () => [],
  };
}

const search: SearchFunction = (data) => ({ title: (data as { title: string }).title, text: 'x' }) as never;

describe('the page feed shared by a build and a merge', () => {
  it('shows each page to every output, returns their notes without trailing nulls, and gives kept notes back', () => {
    const a = titles();
    const silent: OutputCollector = { page: () => undefined, kept: () => undefined, files: () => [] };
    const feed = createPageFeed({ collectors: [a, silent], searchRoutes: null, searched: null, site: {}, routeOrder: new Map() });
    expect(feed.read({ path: '/a', routeId: 'r', params: {}, data: { title: 'A' } }, null)).toEqual(['A']);
    expect(feed.read({ path: '/b', routeId: 'r', params: {}, data: {} }, null)).toEqual([]);
    feed.unread({ path: '/c', routeId: 'r', params: {} }, ['C']);
    expect(a.seen).toEqual(['page /a', 'page /b', 'kept /c "C"']);
  });

  it('adds search entries of indexed routes only when asked, marked kept or not, in route order', () => {
    const searched: SearchedPage[] = [];
    const feed = createPageFeed({
      collectors: [],
      searchRoutes: new Map([['news', search]]),
      searched,
      site: {},
      routeOrder: new Map([
        ['home', 0],
        ['news', 1],
      ]),
    });
    feed.read({ path: '/news/a', routeId: 'news', params: {}, data: { title: 'A' } }, { kept: true });
    feed.read({ path: '/news/b', routeId: 'news', params: {}, data: { title: 'B' } }, null);
    feed.read({ path: '/news/c', routeId: 'news', params: {}, data: { title: 'C' } }, { kept: false });
    feed.read({ path: '/', routeId: 'home', params: {}, data: { title: 'Home' } }, { kept: false });
    expect(searched.map(({ path, route, kept, entries }) => ({ path, route, kept, titles: entries.map((e) => e.title) }))).toEqual([
      { path: '/news/a', route: 1, kept: true, titles: ['A'] },
      { path: '/news/c', route: 1, kept: false, titles: ['C'] },
    ]);
  });

  it('fails on a page that writes the file of a page before it, read or kept unread', () => {
    const feed = createPageFeed({ collectors: [], searchRoutes: null, searched: null, site: {}, routeOrder: new Map() });
    feed.read({ path: '/news/a', routeId: 'news', params: {}, data: {} }, null);
    expect(() => feed.read({ path: '/news/A', routeId: 'news', params: {}, data: {} }, null)).toThrow(
      /^Two pages write to news\/A\/index\.html/,
    );
    expect(() => feed.unread({ path: '/news/a', routeId: 'news', params: {} }, [])).toThrow(/^Two pages write to news\/a\/index\.html/);
  });
});
