import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR, startContentServer, type ContentServer } from '../../backend/server.ts';
import { gql, gqlData, loginToken } from './client.ts';

const DRAFT_COUNTS =
  '{ newsItems(first: 500) { totalCount nodes { slug status } } events(first: 500) { totalCount nodes { slug status category { slug } } } publications(first: 500) { totalCount nodes { slug status category { slug } } } home { featuredNews(first: 50) { status } } }';

interface DraftData {
  newsItems: { totalCount: number; nodes: { slug: string; status: string }[] };
  events: { totalCount: number; nodes: { slug: string; status: string; category: { slug: string } }[] };
  publications: { totalCount: number; nodes: { slug: string; status: string; category: { slug: string } }[] };
  home: { featuredNews: { status: string }[] };
}

describe('editor login and drafts', () => {
  let server: ContentServer;
  const seen: { operationName: string | null; authorization: string | null }[] = [];
  beforeAll(async () => {
    server = await startContentServer({ onRequest: (info) => seen.push(info) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('hides drafts from anonymous requests and shows them with a token from login', async () => {
    const anonymous = await gqlData<DraftData>(server, DRAFT_COUNTS);
    const token = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    const editor = await gqlData<DraftData>(server, DRAFT_COUNTS, {}, token);

    expect(anonymous.newsItems.nodes.every((n) => n.status === 'PUBLISHED')).toBe(true);
    expect(anonymous.home.featuredNews.every((n) => n.status === 'PUBLISHED')).toBe(true);
    const draftNews = editor.newsItems.nodes.filter((n) => n.status === 'DRAFT');
    const draftEvents = editor.events.nodes.filter((n) => n.status === 'DRAFT');
    const draftPublications = editor.publications.nodes.filter((n) => n.status === 'DRAFT');
    expect(draftNews.length).toBeGreaterThanOrEqual(2);
    expect(draftEvents.length).toBeGreaterThanOrEqual(1);
    expect(draftPublications.length).toBeGreaterThanOrEqual(1);
    expect(editor.newsItems.totalCount).toBe(anonymous.newsItems.totalCount + draftNews.length);
    expect(editor.events.totalCount).toBe(anonymous.events.totalCount + draftEvents.length);
    expect(editor.publications.totalCount).toBe(anonymous.publications.totalCount + draftPublications.length);
    expect(editor.home.featuredNews.some((n) => n.status === 'DRAFT')).toBe(true);

    const draft = draftNews[0]?.slug ?? '';
    const event = draftEvents[0];
    const publication = draftPublications[0];
    const lookup = `query($n: String!, $ec: String!, $es: String!, $pc: String!, $ps: String!) {
      newsItem(slug: $n) { slug } event(category: $ec, slug: $es) { slug } publication(category: $pc, slug: $ps) { slug } }`;
    const vars = { n: draft, ec: event?.category.slug, es: event?.slug, pc: publication?.category.slug, ps: publication?.slug };
    expect(await gqlData(server, lookup, vars)).toEqual({ newsItem: null, event: null, publication: null });
    expect(await gqlData(server, lookup, vars, token)).toEqual({
      newsItem: { slug: draft },
      event: { slug: event?.slug },
      publication: { slug: publication?.slug },
    });
  });

  it('never shows a draft anywhere to anonymous requests, including nested lists and home', async () => {
    const query = `{
      home { featuredNews(first: 500) { status } upcomingEvents(first: 500) { status } latestPublications(first: 500) { status }
             researchHighlights(first: 500) { status publications { status file { status } } } }
      researchProjects(first: 500) { nodes { status publications { status file { status } } } }
      publications(first: 500) { nodes { status file { status } } }
      events(first: 500) { nodes { status } } newsItems(first: 500) { nodes { status } } documents(first: 500) { nodes { status } } }`;
    const anonymous = JSON.stringify(await gqlData(server, query));
    expect(anonymous).toContain('"PUBLISHED"');
    expect(anonymous).not.toContain('"DRAFT"');
    const token = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    expect(JSON.stringify(await gqlData(server, query, {}, token))).toContain('"DRAFT"');
  });

  it('rejects a wrong password with "Invalid email or password."', async () => {
    const result = await gql(server, 'mutation { login(email: "editor@institute.example", password: "wrong") { token } }');
    expect(result.data).toBeNull();
    expect(result.errors?.[0]?.message).toBe('Invalid email or password.');
    const unknown = await gql(
      server,
      `mutation { login(email: "someone@else.example", password: "${DEFAULT_EDITOR.password}") { token } }`,
    );
    expect(unknown.errors?.[0]?.message).toBe('Invalid email or password.');
  });

  it('returns the viewer for a valid token and null without one', async () => {
    expect(await gqlData(server, '{ viewer { name email } }')).toEqual({ viewer: null });
    const token = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    expect(await gqlData(server, '{ viewer { name email } }', {}, token)).toEqual({
      viewer: { name: DEFAULT_EDITOR.name, email: DEFAULT_EDITOR.email },
    });
  });

  it('treats an unknown token as anonymous instead of failing the request', async () => {
    const result = await gql<{ viewer: unknown; newsItems: { totalCount: number } }>(
      server,
      '{ viewer { name } newsItems { totalCount } }',
      {},
      'f'.repeat(48),
    );
    expect(result.errors).toBeUndefined();
    expect(result.data?.viewer).toBeNull();
    const anonymous = await gqlData<{ newsItems: { totalCount: number } }>(server, '{ newsItems { totalCount } }');
    expect(result.data?.newsItems.totalCount).toBe(anonymous.newsItems.totalCount);
  });

  it('invalidates the token on logout', async () => {
    const token = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    expect(await gqlData(server, 'mutation { logout }', {}, token)).toEqual({ logout: true });
    expect(await gqlData(server, '{ viewer { name } }', {}, token)).toEqual({ viewer: null });
    expect(await gqlData(server, 'mutation { logout }')).toEqual({ logout: true });
  });

  it('issues a different random token for each login', async () => {
    const a = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    const b = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    expect(a).toMatch(/^[0-9a-f]{32,}$/);
    expect(a).not.toBe(b);
  });

  it('uses the editor account given in options', async () => {
    const custom = await startContentServer({ editor: { email: 'chief@institute.example', password: 's3cret', name: 'Chief Editor' } });
    try {
      const token = await loginToken(custom, 'chief@institute.example', 's3cret');
      expect(await gqlData(custom, '{ viewer { name } }', {}, token)).toEqual({ viewer: { name: 'Chief Editor' } });
      const old = await gql(
        custom,
        `mutation { login(email: "${DEFAULT_EDITOR.email}", password: "${DEFAULT_EDITOR.password}") { token } }`,
      );
      expect(old.errors?.[0]?.message).toBe('Invalid email or password.');
    } finally {
      await custom.close();
    }
  });

  it('answers a CORS preflight from a page on this machine allowing Authorization and Content-Type', async () => {
    const response = await fetch(server.url, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://127.0.0.1:4173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    const allowed = (response.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    expect(allowed).toContain('authorization');
    expect(allowed).toContain('content-type');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('reports each GraphQL request with its operation name and Authorization header', async () => {
    const before = server.requestCount();
    seen.length = 0;
    await gqlData(server, 'query HomeIntro { home { intro } }', {}, 'abc');
    await gqlData(server, '{ site { name } }');
    expect(server.requestCount()).toBe(before + 2);
    expect(seen).toEqual([
      { operationName: 'HomeIntro', authorization: 'Bearer abc' },
      { operationName: null, authorization: null },
    ]);
  });
});
