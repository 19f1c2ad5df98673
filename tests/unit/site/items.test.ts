import { parse, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../../backend/server.ts';
import { pathFor } from '../../../cli/content/crawl.ts';
import { inShard } from '../../../cli/build/shard.ts';
import type { RouteDataContext, RouteEntry, RouteParamsRecord } from '../../../runtime/shared/route-data.ts';
import { events, newsArticles, publications, researchProjects } from '../../../site/build/entries.ts';
import { items } from '../../../site/build/items.ts';
import { routeData } from '../../../site/routes.build.ts';
import { routes } from '../../../site/routes.ts';

/**
 * What an item route fetches for the pages a build wants (site/build/items.ts): one machine walks the
 * full lists, a shard lists every item's params and asks for its own items only; the entries of a share
 * are exactly the single-machine entries of its pages. Against the embedded backend (its query limits
 * included) serving a synthetic site of a few hundred items.
 */

let server: ContentServer;
beforeAll(async () => {
  server = await startContentServer({ scale: 600, now: () => new Date('2026-11-01T09:00:00Z') });
});
afterAll(async () => {
  await server?.close();
});

interface Asked {
  operation: string;
  /** Items asked for under aliases (item0, item1, …). */
  aliases: number;
}

/** The build's view of the backend, recording what it was asked; `wants`, when given, makes it a share. */
function backend(
  wants?: (params: RouteParamsRecord) => boolean,
  answer: (operation: string, data: Record<string, unknown>) => Record<string, unknown> = (_, data) => data,
) {
  const asked: Asked[] = [];
  const ctx: RouteDataContext = {
    async request<TData>(document: string, variables?: Record<string, unknown>): Promise<TData> {
      const definition = parse(document).definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
      const operation = definition.name!.value;
      // Recorded as asked, in the order asked: batches in flight together may be answered in another order.
      const aliases = definition.selectionSet.selections.filter((s) => s.kind === 'Field' && /^item\d+$/.test(s.alias?.value ?? '')).length;
      asked.push({ operation, aliases });
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: document, variables }),
      });
      const { data, errors } = (await response.json()) as { data: Record<string, unknown>; errors?: { message: string }[] };
      if (errors) throw new Error(errors.map((e) => e.message).join('; '));
      return answer(operation, data) as TData;
    },
    ...(wants && { wants }),
  };
  return { ctx, asked };
}

async function collect(entries: AsyncIterable<RouteEntry>): Promise<RouteEntry[]> {
  const all: RouteEntry[] = [];
  for await (const entry of entries) all.push(entry);
  return all;
}

const ITEM_ROUTES = ['news-article', 'event', 'publication', 'research-project'] as const;

/** Shard `index` of `count`'s wants for one route, as the crawl answers it. */
function shardWants(routeId: string, index: number, count: number): (params: RouteParamsRecord) => boolean {
  const route = routes.find((r) => r.id === routeId)!;
  return (params) => inShard({ index, count }, routeId, pathFor(route, params));
}

describe('item routes for the pages a build wants', () => {
  it.each(ITEM_ROUTES)(
    '%s: each share’s entries are the single-machine entries of its pages, and the shares make the whole',
    async (routeId) => {
      const entries = routeData[routeId].entries;
      const single = await collect(entries(backend().ctx));
      expect(single.length).toBeGreaterThan(20);
      const shares: RouteEntry[][] = [];
      for (let index = 1; index <= 3; index++) {
        const wants = shardWants(routeId, index, 3);
        const share = await collect(entries(backend(wants).ctx));
        expect(share).toEqual(single.filter((entry) => wants(entry.params)));
        shares.push(share);
      }
      expect(shares.flat()).toHaveLength(single.length);
    },
  );

  it('on one machine, walks each full list and asks for no item by itself', async () => {
    const { ctx, asked } = backend();
    for (const id of ITEM_ROUTES) await collect(routeData[id].entries(ctx));
    expect(new Set(asked.map((a) => a.operation))).toEqual(
      new Set(['NewsArticles', 'EventEntries', 'PublicationEntries', 'ResearchProjectEntries']),
    );
  });

  it('on one machine, gives each article its own body back, whether the bodies waited on disk or, without a temporary folder, in memory', async () => {
    const bodies = async (): Promise<string[]> =>
      (await collect(routeData['news-article'].entries(backend().ctx))).map(
        (e) => (e.data as { newsItem: { body: string } }).newsItem.body,
      );
    // Every body as the backend has it, asked for apart from the build's own queries.
    const expected: string[] = [];
    for (let after: string | null = null, more = true; more; ) {
      const query = 'query ($after: String) { newsItems(first: 100, after: $after) { nodes { body } pageInfo { hasNextPage endCursor } } }';
      const response: Response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { after } }),
      });
      type Page = { nodes: { body: string }[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } };
      const newsItems: Page = ((await response.json()) as { data: { newsItems: Page } }).data.newsItems;
      expected.push(...newsItems.nodes.map((n) => n.body));
      ({ hasNextPage: more, endCursor: after } = newsItems.pageInfo);
    }
    expect(expected.length).toBeGreaterThan(100);
    expect(await bodies()).toEqual(expected);
    const before = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/site-spill-test';
    try {
      expect(await bodies()).toEqual(expected);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it('in a share, lists what names each page and asks for its own items only, in full, many per request', async () => {
    for (const [id, source, list] of [
      ['news-article', newsArticles, 'NewsArticleRefs'],
      ['event', events, 'EventRefs'],
      ['publication', publications, 'PublicationRefs'],
      ['research-project', researchProjects, 'ResearchProjectRefs'],
    ] as const) {
      const { ctx, asked } = backend(shardWants(id, 2, 4));
      const share = await collect(routeData[id].entries(ctx));
      const byParams = asked.filter((a) => a.operation === source.byParams.operation);
      expect(new Set(asked.map((a) => a.operation))).toEqual(new Set([list, source.byParams.operation]));
      // Every wanted item asked for once, in full batches but the last.
      expect(byParams.reduce((sum, a) => sum + a.aliases, 0)).toBe(share.length);
      expect(byParams.slice(0, -1).every((a) => a.aliases === source.byParams.perRequest)).toBe(true);
      expect(byParams.length).toBe(Math.ceil(share.length / source.byParams.perRequest));
    }
  });

  it('gives a wanted item the backend no longer has no data, so its page fails as missing', async () => {
    const wants = shardWants('event', 1, 2);
    const { ctx } = backend(wants, (operation, data) => (operation === 'EventsBySlug' ? { ...data, item0: null } : data));
    const share = await collect(routeData.event.entries(ctx));
    expect(share[0]?.data).toEqual({ event: null });
    expect(routeData.event.exists(share[0]!.data as never)).toBe(false);
    expect((share[1]?.data as { event: unknown }).event).not.toBeNull();
  });

  it('stops asking for batches when the build stops early, and leaves none to fail unheard', async () => {
    let inFlight = 0;
    let most = 0;
    const { ctx } = backend(() => true);
    const slow: RouteDataContext = {
      ...ctx,
      async request<TData>(document: string, variables?: Record<string, unknown>): Promise<TData> {
        most = Math.max(most, ++inFlight);
        try {
          return await ctx.request<TData>(document, variables);
        } finally {
          inFlight--;
        }
      },
    };
    const walk = items(slow, newsArticles);
    await walk.next();
    await walk.return(undefined);
    expect(inFlight).toBe(0);
    // The list walk, and a few batches ahead of the caller: not the whole collection at once.
    expect(most).toBeLessThanOrEqual(4);
  });
});
