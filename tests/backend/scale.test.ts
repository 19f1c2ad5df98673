import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countSitePages, createScaledContent, startContentServer, type ContentServer } from '../../backend/server.ts';
import type { Content } from '../../backend/content/types.ts';
import { gqlData } from './client.ts';

/** Every field of every record, reading lazy getters too, so two contents can be compared as text. */
function snapshot(content: Content): string {
  const read = (item: object, fields: string[]): unknown[] => fields.map((f) => JSON.stringify((item as Record<string, unknown>)[f]));
  return JSON.stringify([
    content.news.map((n) => read(n, ['id', 'slug', 'title', 'date', 'updatedAt', 'status', 'summary', 'body', 'image', 'tags'])),
    content.events.map((e) =>
      read(e, ['id', 'slug', 'title', 'startsAt', 'endsAt', 'location', 'registrationUrl', 'summary', 'body', 'image', 'category']),
    ),
    content.publications.map((p) => read(p, ['id', 'slug', 'title', 'year', 'abstract', 'doi', 'publisher', 'file', 'authors'])),
    content.projects.map((p) => read(p, ['id', 'slug', 'title', 'startDate', 'endDate', 'summary', 'body', 'image', 'people', 'artistic'])),
    content.people,
    content.courses,
    content.documents,
    content.episodes,
    [...content.media],
  ]);
}

describe('scaled content', () => {
  let server: ContentServer;
  beforeAll(async () => {
    server = await startContentServer({ scale: 10_000, now: () => new Date('2026-11-15T00:00:00Z') });
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves about 10,000 site pages at scale 10,000 (within 5%)', async () => {
    const data = await gqlData<{
      newsItems: { totalCount: number };
      events: { totalCount: number };
      publications: { totalCount: number };
      researchProjects: { totalCount: number };
      eventCategories: unknown[];
      publicationCategories: unknown[];
    }>(
      server,
      '{ newsItems { totalCount } events { totalCount } publications { totalCount } researchProjects { totalCount } eventCategories { slug } publicationCategories { slug } }',
    );
    const lists = 6;
    const aboutPages = 6;
    const pages =
      1 +
      lists +
      aboutPages +
      data.eventCategories.length +
      data.publicationCategories.length +
      data.newsItems.totalCount +
      data.events.totalCount +
      data.publications.totalCount +
      data.researchProjects.totalCount;
    expect(Math.abs(pages - 10_000)).toBeLessThanOrEqual(500);
    expect(data.newsItems.totalCount / pages).toBeGreaterThan(0.6);
    expect(data.eventCategories).toHaveLength(4);
    expect(data.publicationCategories).toHaveLength(4);
  });

  it('gives every item its own title, as a real site has, so the duplicate-title check stays quiet', () => {
    const content = createScaledContent(5_000);
    for (const list of [content.news, content.events, content.publications, content.projects]) {
      const titles = list.map((item) => item.title);
      expect(new Set(titles).size).toBe(titles.length);
    }
  });

  it('is deterministic: two calls give equal content', () => {
    const a = createScaledContent(2_000);
    const b = createScaledContent(2_000);
    expect(snapshot(a)).toBe(snapshot(b));
    expect(countSitePages(a)).toBe(2_000);
  });

  it('keeps people, courses, documents and podcast modest', () => {
    const content = createScaledContent(50_000);
    expect(countSitePages(content)).toBe(50_000);
    expect(content.people.length).toBeLessThanOrEqual(200);
    expect(content.courses.length).toBeLessThanOrEqual(100);
    expect(content.documents.length).toBeLessThanOrEqual(100);
    expect(content.episodes.length).toBeLessThanOrEqual(50);
  });

  it('pages through all scaled news with unique slugs and realistic bodies', async () => {
    const query =
      'query($after: String) { newsItems(first: 500, after: $after) { totalCount pageInfo { hasNextPage endCursor } nodes { slug body image { url } } } }';
    const slugs = new Set<string>();
    let after: string | null = null;
    let total: number | undefined;
    for (;;) {
      const data: {
        newsItems: { totalCount: number; pageInfo: { hasNextPage: boolean; endCursor: string }; nodes: { slug: string; body: string }[] };
      } = await gqlData(server, query, { after });
      total = data.newsItems.totalCount;
      for (const node of data.newsItems.nodes) {
        slugs.add(node.slug);
        expect(node.body.length).toBeGreaterThan(1000);
        expect(node.body.length).toBeLessThan(3500);
      }
      if (!data.newsItems.pageInfo.hasNextPage) break;
      after = data.newsItems.pageInfo.endCursor;
    }
    expect(slugs.size).toBe(total);
  });

  it('has upcoming events on home and serves scaled media', async () => {
    const data = await gqlData<{
      home: { upcomingEvents: { startsAt: string; image: { url: string } | null }[] };
      newsItems: { nodes: { image: { url: string } | null }[] };
    }>(server, '{ home { upcomingEvents(first: 3) { startsAt image { url } } } newsItems(first: 8) { nodes { image { url } } } }');
    expect(data.home.upcomingEvents).toHaveLength(3);
    const url = data.newsItems.nodes.find((n) => n.image)?.image?.url ?? '';
    const response = await fetch(`${server.origin}${url}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    await response.arrayBuffer();
  });

  it('rejects a negative scale', () => {
    expect(() => createScaledContent(-1)).toThrow(RangeError);
    expect(() => createScaledContent(1.5)).toThrow(RangeError);
  });
});
