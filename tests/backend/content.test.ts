import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSampleContent, startContentServer, type ContentServer } from '../../backend/server.ts';
import { gqlData } from './client.ts';

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

describe('sample content over GraphQL', () => {
  let server: ContentServer;
  // Fixed "now" in late 2026, so past and upcoming events are stable whatever the real date.
  const now = new Date('2026-11-15T12:00:00Z');

  beforeAll(async () => {
    server = await startContentServer({ now: () => now });
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves at least the promised number of published items of every type', async () => {
    const data = await gqlData<Record<string, { totalCount: number }>>(
      server,
      `{ newsItems { totalCount } events { totalCount } publications { totalCount } courses { totalCount }
         researchProjects { totalCount } documents { totalCount } people { totalCount } podcastEpisodes { totalCount } }`,
    );
    const counts = Object.fromEntries(Object.entries(data).map(([k, v]) => [k, v.totalCount]));
    expect(counts['newsItems']).toBeGreaterThanOrEqual(40);
    expect(counts['events']).toBeGreaterThanOrEqual(30);
    expect(counts['publications']).toBeGreaterThanOrEqual(30);
    expect(counts['courses']).toBeGreaterThanOrEqual(20);
    expect(counts['researchProjects']).toBeGreaterThanOrEqual(12);
    expect(counts['documents']).toBeGreaterThanOrEqual(30);
    expect(counts['people']).toBeGreaterThanOrEqual(25);
    expect(counts['podcastEpisodes']).toBeGreaterThanOrEqual(8);
  });

  it('has four event categories and four publication categories, each with items', async () => {
    const data = await gqlData<{ eventCategories: { slug: string }[]; publicationCategories: { slug: string }[] }>(
      server,
      '{ eventCategories { slug title description } publicationCategories { slug title description } }',
    );
    expect(data.eventCategories).toHaveLength(4);
    expect(data.publicationCategories).toHaveLength(4);
    for (const { slug } of data.eventCategories) {
      const events = await gqlData<{ events: { totalCount: number } }>(
        server,
        'query($c: String) { events(category: $c) { totalCount } }',
        { c: slug },
      );
      expect(events.events.totalCount, slug).toBeGreaterThan(0);
    }
    for (const { slug } of data.publicationCategories) {
      const pubs = await gqlData<{ publications: { totalCount: number } }>(
        server,
        'query($c: String) { publications(category: $c) { totalCount } }',
        { c: slug },
      );
      expect(pubs.publications.totalCount, slug).toBeGreaterThan(0);
    }
  });

  it('uses lowercase hyphenated slugs, unique per type and per category', () => {
    const content = loadSampleContent();
    const groups: [string, readonly { slug: string }[]][] = [
      ['news', content.news],
      ['courses', content.courses],
      ['projects', content.projects],
      ['documents', content.documents],
      ['people', content.people],
      ['episodes', content.episodes],
      ['pages', content.pages],
      ...content.eventCategories.map((c): [string, { slug: string }[]] => [
        `events/${c.slug}`,
        content.events.filter((e) => e.category.slug === c.slug),
      ]),
      ...content.publicationCategories.map((c): [string, { slug: string }[]] => [
        `publications/${c.slug}`,
        content.publications.filter((p) => p.category.slug === c.slug),
      ]),
    ];
    for (const [name, items] of groups) {
      const slugs = items.map((i) => i.slug);
      for (const slug of slugs) expect(slug, name).toMatch(SLUG);
      expect(new Set(slugs).size, name).toBe(slugs.length);
    }
  });

  it('builds the same sample content on every call', () => {
    const serialise = (): string => {
      const content = loadSampleContent();
      return JSON.stringify([content, [...content.media]]);
    };
    expect(serialise()).toBe(serialise());
  });

  it('serves the six about pages, and about-large has at least six anchored sections of several paragraphs', async () => {
    for (const slug of ['about', 'people', 'contact', 'podcast', 'about-large', 'artistic-research']) {
      const data = await gqlData<{ page: { slug: string; body: string } | null }>(
        server,
        'query($s: String!) { page(slug: $s) { slug title body summary } }',
        { s: slug },
      );
      expect(data.page?.slug).toBe(slug);
      expect(data.page?.body).toContain('<p>');
    }
    const large = await gqlData<{ page: { sections: { id: string; body: string }[] } }>(
      server,
      '{ page(slug: "about-large") { sections { id title body } } }',
    );
    expect(large.page.sections.length).toBeGreaterThanOrEqual(6);
    for (const section of large.page.sections) {
      expect(section.id).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(section.body.match(/<p>/g)?.length ?? 0).toBeGreaterThanOrEqual(3);
    }
  });

  it('returns null for items that do not exist', async () => {
    const data = await gqlData<Record<string, unknown>>(
      server,
      `{ newsItem(slug: "no-such-item") { slug } event(category: "lectures", slug: "nope") { slug }
         publication(category: "nope", slug: "nope") { slug } researchProject(slug: "nope") { slug } page(slug: "nope") { slug } }`,
    );
    expect(Object.values(data)).toEqual([null, null, null, null, null]);
  });

  it('finds single items by slug, and events and publications by category and slug', async () => {
    const list = await gqlData<{
      events: { nodes: { slug: string; category: { slug: string } }[] };
      publications: { nodes: { slug: string; category: { slug: string } }[] };
    }>(server, '{ events(first: 1) { nodes { slug category { slug } } } publications(first: 1) { nodes { slug category { slug } } } }');
    const event = list.events.nodes[0];
    const publication = list.publications.nodes[0];
    const data = await gqlData<{ event: { slug: string }; publication: { slug: string; authors: unknown[] } }>(
      server,
      'query($ec: String!, $es: String!, $pc: String!, $ps: String!) { event(category: $ec, slug: $es) { slug } publication(category: $pc, slug: $ps) { slug authors { name } } }',
      { ec: event?.category.slug, es: event?.slug, pc: publication?.category.slug, ps: publication?.slug },
    );
    expect(data.event.slug).toBe(event?.slug);
    expect(data.publication.slug).toBe(publication?.slug);
    expect(data.publication.authors.length).toBeGreaterThan(0);
  });

  it('orders lists as the schema documents', async () => {
    const data = await gqlData<{
      newsItems: { nodes: { date: string }[] };
      events: { nodes: { startsAt: string }[] };
      publications: { nodes: { year: number }[] };
      courses: { nodes: { code: string }[] };
      researchProjects: { nodes: { startDate: string }[] };
      podcastEpisodes: { nodes: { number: number }[] };
    }>(
      server,
      `{ newsItems(first: 500) { nodes { date } } events(first: 500) { nodes { startsAt } } publications(first: 500) { nodes { year } }
         courses(first: 500) { nodes { code } } researchProjects(first: 500) { nodes { startDate } } podcastEpisodes(first: 500) { nodes { number } } }`,
    );
    const sorted = <T>(values: T[], compare: (a: T, b: T) => number): boolean =>
      values.every((v, i) => i === 0 || compare(values[i - 1] as T, v) <= 0);
    expect(
      sorted(
        data.newsItems.nodes.map((n) => n.date),
        (a, b) => b.localeCompare(a),
      ),
    ).toBe(true);
    expect(
      sorted(
        data.events.nodes.map((n) => Date.parse(n.startsAt)),
        (a, b) => a - b,
      ),
    ).toBe(true);
    expect(
      sorted(
        data.publications.nodes.map((n) => n.year),
        (a, b) => b - a,
      ),
    ).toBe(true);
    expect(
      sorted(
        data.courses.nodes.map((n) => n.code),
        (a, b) => a.localeCompare(b),
      ),
    ).toBe(true);
    expect(
      sorted(
        data.researchProjects.nodes.map((n) => n.startDate),
        (a, b) => b.localeCompare(a),
      ),
    ).toBe(true);
    expect(
      sorted(
        data.podcastEpisodes.nodes.map((n) => n.number),
        (a, b) => b - a,
      ),
    ).toBe(true);
  });

  it('puts the newest news, upcoming events (relative to now) and latest publications on home', async () => {
    const data = await gqlData<{
      home: {
        intro: string;
        featuredNews: { date: string }[];
        upcomingEvents: { startsAt: string }[];
        latestPublications: unknown[];
        researchHighlights: unknown[];
      };
      newsItems: { nodes: { date: string }[] };
    }>(
      server,
      `{ home { title intro updatedAt featuredNews { date } upcomingEvents(first: 5) { startsAt } latestPublications { title } researchHighlights { title } }
         newsItems(first: 3) { nodes { date } } }`,
    );
    expect(data.home.intro.length).toBeGreaterThan(20);
    expect(data.home.featuredNews).toEqual(data.newsItems.nodes);
    expect(data.home.upcomingEvents).toHaveLength(5);
    for (const e of data.home.upcomingEvents) expect(Date.parse(e.startsAt)).toBeGreaterThanOrEqual(now.getTime());
    expect(data.home.latestPublications).toHaveLength(3);
    expect(data.home.researchHighlights).toHaveLength(3);
  });

  it('describes the site with navigation, footer and contact details', async () => {
    const data = await gqlData<{
      site: { url: string; language: string; navigation: { href: string }[]; footer: { href: string }[]; contact: { email: string } };
    }>(
      server,
      '{ site { name tagline description url language navigation { label href } footer { label href } contact { address postalCode city country phone email openingHours } } }',
    );
    expect(data.site.url).toBe('https://institute.example');
    expect(data.site.language).toBe('en');
    expect(data.site.navigation.map((n) => n.href)).toEqual([
      '/news',
      '/events',
      '/publications',
      '/courses',
      '/research',
      '/documents',
      '/about',
    ]);
    expect(data.site.footer.length).toBeGreaterThan(0);
    expect(data.site.contact.email).toContain('@');
  });
});
