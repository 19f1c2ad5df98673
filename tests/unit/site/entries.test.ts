import { describe, expect, it } from 'vitest';
import type { RouteDataContext, RouteEntry } from '../../../runtime/shared/route-data.ts';
import { connectionBatches, paginate } from '../../../site/build/paginate.ts';
import { routeData } from '../../../site/routes.build.ts';

/**
 * How the build enumerates dynamic routes: list queries paged with cursors, each entry carrying its page's
 * data in the shape of the route's own query. The backend is a fake that serves canned connection pages.
 */

interface Call {
  document: string;
  variables: Record<string, unknown> | undefined;
}

/** A context whose list field serves `nodes` in pages of `pageSize`, with cursors `c1`, `c2`, ... */
function fakeBackend(field: string, nodes: unknown[], pageSize = 2): { ctx: RouteDataContext; calls: Call[] } {
  const calls: Call[] = [];
  const ctx: RouteDataContext = {
    async request<T>(document: string, variables?: Record<string, unknown>): Promise<T> {
      calls.push({ document, variables });
      const after = typeof variables?.after === 'string' ? Number(variables.after.slice(1)) : 0;
      const page = nodes.slice(after, after + pageSize);
      const end = after + page.length;
      const connection = { nodes: page, pageInfo: { hasNextPage: end < nodes.length, endCursor: page.length ? `c${end}` : null } };
      return { [field]: Array.isArray(nodes) && field.endsWith('Categories') ? nodes : connection } as T;
    },
  };
  return { ctx, calls };
}

async function collect(entries: AsyncIterable<RouteEntry>): Promise<RouteEntry[]> {
  const all: RouteEntry[] = [];
  for await (const entry of entries) all.push(entry);
  return all;
}

const news = (slug: string, tags: string[] = []) => ({
  id: slug,
  slug,
  title: slug,
  updatedAt: '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  summary: '',
  image: null,
  body: '',
  tags,
});
const event = (category: string, slug: string) => ({
  id: slug,
  slug,
  title: slug,
  category: { slug: category, title: category, description: '' },
});

describe('dynamic route entries', () => {
  it('pages through news with cursors and yields each article as the article query would return it', async () => {
    const items = [news('a'), news('b'), news('c')];
    const { ctx, calls } = fakeBackend('newsItems', items);
    const entries = await collect(routeData['news-article'].entries(ctx));
    expect(entries.map((e) => e.params)).toEqual(items.map((item) => ({ slug: item.slug })));
    expect(entries.map((e) => (e.data as { newsItem: unknown }).newsItem)).toEqual(items);
    expect(calls.map((c) => c.variables?.after)).toEqual([null, 'c2']);
    expect(calls[0]?.document).toMatch(/query NewsArticles/);
  });

  it('takes an event page’s category from the event itself', async () => {
    const { ctx } = fakeBackend('events', [event('lectures', 'open-day'), event('concerts', 'spring')]);
    const entries = await collect(routeData.event.entries(ctx));
    expect(entries.map((e) => e.params)).toEqual([
      { category: 'lectures', slug: 'open-day' },
      { category: 'concerts', slug: 'spring' },
    ]);
    expect(entries[0]?.data).toEqual({ event: event('lectures', 'open-day') });
  });

  it('gives each article the articles that share its tags as related ones, in the shape of the article query', async () => {
    const items = [news('a', ['sound']), news('b', ['video']), news('c', ['sound']), news('d', [])];
    const { ctx } = fakeBackend('newsItems', items);
    const entries = await collect(routeData['news-article'].entries(ctx));
    const relatedOf = (slug: string) =>
      (entries.find((e) => e.params.slug === slug)?.data as { related: { nodes: { slug: string }[] } }).related.nodes.map((n) => n.slug);
    expect(relatedOf('a')[0]).toBe('c');
    expect(relatedOf('c')[0]).toBe('a');
    expect(relatedOf('a')).not.toContain('a');
    expect(relatedOf('d')).toHaveLength(3);
  });

  it('lists one publication category page per category, leaving their lists to the route query', async () => {
    const { ctx } = fakeBackend('publicationCategories', [{ slug: 'articles' }, { slug: 'books' }]);
    expect(await collect(routeData['publication-category'].entries(ctx))).toEqual([
      { params: { category: 'articles' } },
      { params: { category: 'books' } },
    ]);
  });

  it('fails loudly on a slug the route table would reject, instead of building an unreachable page', async () => {
    const { ctx } = fakeBackend('newsItems', [news('Not A Slug')]);
    await expect(collect(routeData['news-article'].entries(ctx))).rejects.toThrow(/Not A Slug/);
  });
});

describe('paginate', () => {
  it('stops when the backend repeats a cursor rather than looping forever', async () => {
    const ctx: RouteDataContext = {
      request: async <T>() => ({ list: { nodes: [1], pageInfo: { hasNextPage: true, endCursor: 'same' } } }) as T,
    };
    const run = collect(
      paginate(ctx, {
        document: 'query L { x }',
        select: (r: { list: { nodes: number[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }) => r.list,
      }) as AsyncIterable<never>,
    );
    await expect(run).rejects.toThrow(/cursor 'same' twice/);
  });

  it('asks for the next batch as soon as a response names its cursor, before the caller has used that response', async () => {
    const { ctx, calls } = fakeBackend('list', [1, 2, 3, 4, 5], 2);
    const batches = connectionBatches(ctx, {
      document: 'query L { x }',
      select: (r: { list: { nodes: number[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }) => r.list,
    });
    await batches.next();
    expect(calls.map((c) => c.variables?.after)).toEqual([null, 'c2']);
    await batches.next();
    await batches.next();
    // The last response says there is no more: nothing is asked beyond it.
    expect(calls.map((c) => c.variables?.after)).toEqual([null, 'c2', 'c4']);
    expect((await batches.next()).done).toBe(true);
  });

  it('leaves no request unheard when the caller stops walking early and the request ahead fails', async () => {
    let call = 0;
    const ctx: RouteDataContext = {
      request: async <T>() => {
        call++;
        if (call > 1) throw new Error('backend down');
        return { list: { nodes: [1], pageInfo: { hasNextPage: true, endCursor: 'c1' } } } as T;
      },
    };
    const batches = connectionBatches(ctx, {
      document: 'query L { x }',
      select: (r: { list: { nodes: number[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }) => r.list,
    });
    await batches.next();
    await expect(batches.return(undefined)).resolves.toEqual({ done: true, value: undefined });
    expect(call).toBe(2);
  });

  it('asks for full batches of 100', async () => {
    const { ctx, calls } = fakeBackend('list', [1, 2, 3], 100);
    const nodes: unknown[] = [];
    for await (const node of paginate(ctx, {
      document: 'query L { x }',
      select: (r: { list: { nodes: number[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }) => r.list,
    }))
      nodes.push(node);
    expect(nodes).toEqual([1, 2, 3]);
    expect(calls[0]?.variables).toEqual({ first: 100, after: null });
  });
});
