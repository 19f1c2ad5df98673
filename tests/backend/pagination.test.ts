import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { fetchAll, gql, gqlData } from './client.ts';

describe('connections', () => {
  let server: ContentServer;
  beforeAll(async () => {
    server = await startContentServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('walks every news item with cursors, without repeats, matching totalCount', async () => {
    const { nodes, totalCount, pages } = await fetchAll<{ slug: string }>(server, 'newsItems', 'slug', { first: 7 });
    expect(nodes).toHaveLength(totalCount);
    expect(new Set(nodes.map((n) => n.slug)).size).toBe(totalCount);
    expect(pages).toBe(Math.ceil(totalCount / 7));
    const single = await gqlData<{ newsItems: { nodes: { slug: string }[] } }>(server, '{ newsItems(first: 500) { nodes { slug } } }');
    expect(nodes.map((n) => n.slug)).toEqual(single.newsItems.nodes.map((n) => n.slug));
  });

  it('returns 20 items by default and reports the end of the list', async () => {
    const data = await gqlData<{ newsItems: { nodes: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string } } }>(
      server,
      '{ newsItems { nodes { slug } pageInfo { hasNextPage endCursor } } }',
    );
    expect(data.newsItems.nodes).toHaveLength(20);
    expect(data.newsItems.pageInfo.hasNextPage).toBe(true);
    const last = await gqlData<{ podcastEpisodes: { pageInfo: { hasNextPage: boolean } } }>(
      server,
      '{ podcastEpisodes(first: 500) { pageInfo { hasNextPage endCursor } } }',
    );
    expect(last.podcastEpisodes.pageInfo.hasNextPage).toBe(false);
  });

  it('filters events and publications by category and walks them to the end', async () => {
    const all = await fetchAll<{ category: { slug: string } }>(server, 'events', 'slug category { slug }', { first: 5 });
    const lectures = await fetchAll<{ category: { slug: string } }>(server, 'events', 'slug category { slug }', {
      first: 3,
      args: 'category: "lectures"',
    });
    expect(lectures.nodes.length).toBe(lectures.totalCount);
    expect(lectures.nodes.every((n) => n.category.slug === 'lectures')).toBe(true);
    expect(lectures.totalCount).toBe(all.nodes.filter((n) => n.category.slug === 'lectures').length);
    const theses = await fetchAll<{ category: { slug: string } }>(server, 'publications', 'slug category { slug }', {
      args: 'category: "theses"',
    });
    expect(theses.totalCount).toBeGreaterThan(0);
    expect(theses.nodes.every((n) => n.category.slug === 'theses')).toBe(true);
  });

  it('gives an empty connection for an unknown category', async () => {
    const data = await gqlData<Record<string, unknown>>(
      server,
      '{ events(category: "no-such-category") { totalCount nodes { slug } pageInfo { hasNextPage endCursor } } publications(category: "nope") { totalCount nodes { slug } } }',
    );
    expect(data['events']).toEqual({ totalCount: 0, nodes: [], pageInfo: { hasNextPage: false, endCursor: null } });
    expect(data['publications']).toEqual({ totalCount: 0, nodes: [] });
  });

  it('rejects first: 501 with an error naming the limit of 500', async () => {
    const result = await gql(server, '{ newsItems(first: 501) { totalCount } }');
    expect(result.errors?.[0]?.message).toMatch(/500/);
    const home = await gql(server, '{ home { featuredNews(first: 501) { slug } } }');
    expect(home.errors?.[0]?.message).toMatch(/500/);
  });

  it('accepts first: 500 and first: 0', async () => {
    const data = await gqlData<{ a: { nodes: unknown[] }; b: { nodes: unknown[]; totalCount: number } }>(
      server,
      '{ a: documents(first: 500) { nodes { slug } } b: documents(first: 0) { nodes { slug } totalCount } }',
    );
    expect(data.a.nodes.length).toBe(data.b.totalCount);
    expect(data.b.nodes).toEqual([]);
  });

  it('rejects a cursor it did not issue', async () => {
    const result = await gql(server, '{ newsItems(after: "not-a-cursor") { totalCount } }');
    expect(result.errors?.[0]?.message).toMatch(/Invalid cursor/);
  });

  it('groups documents by category, newest first within each', async () => {
    const { nodes } = await fetchAll<{ category: { slug: string }; publishedAt: string }>(
      server,
      'documents',
      'category { slug } publishedAt',
    );
    const order: string[] = [];
    for (const n of nodes) if (order.at(-1) !== n.category.slug) order.push(n.category.slug);
    expect(new Set(order).size).toBe(order.length);
    for (let i = 1; i < nodes.length; i++) {
      const [a, b] = [nodes[i - 1], nodes[i]];
      if (a && b && a.category.slug === b.category.slug) expect(a.publishedAt >= b.publishedAt).toBe(true);
    }
  });
});
