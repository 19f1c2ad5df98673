import { afterEach, describe, expect, it } from 'vitest';
import { createRuntimeClient, SubscriptionsUnavailableError, type RuntimeClientOptions } from '../../../runtime/graphql-client.ts';
import type { GraphQLRequestError } from '../../../runtime/shared/graphql.ts';
import { sendJson, startTestServer, type RecordedRequest, type TestServer } from '../../helpers/http-server.ts';

const NEWS = 'query NewsIndex { newsItems { nodes { title } } }';
const ITEM = 'query NewsArticle($slug: String!) { newsItem(slug: $slug) { title } }';

let server: TestServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

/** A real API on 127.0.0.1 that answers every operation with `answer` (after `delayMs`). */
async function api(
  answer: (req: RecordedRequest) => { status: number; body: unknown } = () => ({
    status: 200,
    body: { data: { newsItems: { nodes: [] } } },
  }),
  delayMs = 0,
): Promise<TestServer> {
  server = await startTestServer((req, res) => {
    const { status, body } = answer(req);
    setTimeout(() => sendJson(res, status, body), delayMs);
  });
  return server;
}

function client(endpoint: string, options: Partial<RuntimeClientOptions> = {}) {
  const errors: GraphQLRequestError[] = [];
  const created = createRuntimeClient({ endpoint, getToken: () => null, onError: (e) => errors.push(e), retries: 1, ...options });
  return { client: created, errors };
}

describe('the runtime GraphQL client "default"', () => {
  it('sends Authorization: Bearer {token} when a token exists and no Authorization header otherwise', async () => {
    const s = await api();
    let token: string | null = null;
    const { client: c } = client(`${s.url}/graphql`, { getToken: () => token });
    await c.query(NEWS, undefined, { fetchPolicy: 'network-only' });
    token = 'editor-token';
    await c.query(NEWS, undefined, { fetchPolicy: 'network-only' });
    expect(s.requests[0]?.headers.authorization).toBeUndefined();
    expect(s.requests[1]?.headers.authorization).toBe('Bearer editor-token');
    // The site's own cookies never travel to the API.
    expect(s.requests.every((r) => r.headers.cookie === undefined)).toBe(true);
  });

  it('does not follow a redirect while it carries the token, so the token cannot reach another host', async () => {
    const seen: {
      url: string;
      redirect: RequestRedirect | undefined;
      credentials: RequestCredentials | undefined;
      authorization: string | null;
    }[] = [];
    const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({
        url: String(input),
        redirect: init?.redirect,
        credentials: init?.credentials,
        authorization: new Headers(init?.headers).get('authorization'),
      });
      return new Response(JSON.stringify({ data: { newsItems: { nodes: [] } } }), { headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    let token: string | null = 'editor-token';
    const { client: c } = client('https://api.institute.example/graphql', { fetch: fakeFetch, getToken: () => token });
    await c.query(NEWS, undefined, { fetchPolicy: 'network-only' });
    token = null;
    await c.query(NEWS, undefined, { fetchPolicy: 'network-only' });
    expect(seen).toEqual([
      { url: 'https://api.institute.example/graphql', redirect: 'error', credentials: 'omit', authorization: 'Bearer editor-token' },
      { url: 'https://api.institute.example/graphql', redirect: 'follow', credentials: 'omit', authorization: null },
    ]);
  });

  it('shares one request between identical queries in flight, but not between different variables or mutations', async () => {
    const s = await api(() => ({ status: 200, body: { data: { newsItem: { title: 'A' }, logout: true } } }), 100);
    const { client: c } = client(`${s.url}/graphql`);
    const same = await Promise.all([
      c.query(ITEM, { slug: 'a' }, { fetchPolicy: 'network-only' }),
      c.query(ITEM, { slug: 'a' }, { fetchPolicy: 'network-only' }),
    ]);
    expect(same[0]).toEqual(same[1]);
    expect(s.requests).toHaveLength(1);
    await Promise.all([
      c.query(ITEM, { slug: 'a' }, { fetchPolicy: 'network-only' }),
      c.query(ITEM, { slug: 'b' }, { fetchPolicy: 'network-only' }),
    ]);
    expect(s.requests).toHaveLength(3);
    await Promise.all([c.mutate('mutation Logout { logout }'), c.mutate('mutation Logout { logout }')]);
    expect(s.requests).toHaveLength(5);
  });

  it('answers cache-first queries from its cache until the cache is reset', async () => {
    const s = await api();
    const { client: c } = client(`${s.url}/graphql`);
    await c.query(NEWS);
    await c.query(NEWS);
    expect(s.requests).toHaveLength(1);
    await c.query(NEWS, undefined, { fetchPolicy: 'network-only' });
    expect(s.requests).toHaveLength(2);
    c.resetCache();
    await c.query(NEWS);
    expect(s.requests).toHaveLength(3);
  });

  it('keeps no result of a request that was in flight when the cache was reset (it belongs to the previous login)', async () => {
    const s = await api(undefined, 100);
    const { client: c } = client(`${s.url}/graphql`);
    const pending = c.query(NEWS);
    c.resetCache();
    await pending;
    await c.query(NEWS);
    expect(s.requests).toHaveLength(2);
  });

  describe('for the first 100 ms after hydration', () => {
    const initial = { document: ITEM, variables: { slug: 'a' }, data: { newsItem: { title: 'From the page' } } };

    it("answers the page's own query from its inlined data, even network-only, and asks the API after that", async () => {
      const s = await api(() => ({ status: 200, body: { data: { newsItem: { title: 'From the API' } } } }));
      let now = 1000;
      const { client: c } = client(`${s.url}/graphql`, { now: () => now, networkHoldUntil: 1100, initial });
      now = 1099;
      await expect(c.query(ITEM, { slug: 'a' }, { fetchPolicy: 'network-only' })).resolves.toEqual({
        newsItem: { title: 'From the page' },
      });
      expect(s.requests).toHaveLength(0);
      // A query the page data does not answer goes to the network at once.
      await c.query(ITEM, { slug: 'b' }, { fetchPolicy: 'network-only' });
      expect(s.requests).toHaveLength(1);
      now = 1100;
      await expect(c.query(ITEM, { slug: 'a' }, { fetchPolicy: 'network-only' })).resolves.toEqual({ newsItem: { title: 'From the API' } });
      expect(s.requests).toHaveLength(2);
    });

    it('does not use the inlined data for a logged-in editor: it is the anonymous answer', async () => {
      const s = await api(() => ({ status: 200, body: { data: { newsItem: { title: 'Draft' } } } }));
      const { client: c } = client(`${s.url}/graphql`, { now: () => 0, networkHoldUntil: 100, initial, getToken: () => 'editor-token' });
      await expect(c.query(ITEM, { slug: 'a' })).resolves.toEqual({ newsItem: { title: 'Draft' } });
      expect(s.requests).toHaveLength(1);
    });
  });

  it('refuses subscriptions with a clear error and sends nothing: there is no WebSocket endpoint', async () => {
    const s = await api();
    const { client: c } = client(`${s.url}/graphql`);
    const subscription = '# live updates\nsubscription NewsAdded { newsAdded { title } }';
    await expect(c.query(subscription)).rejects.toThrow(SubscriptionsUnavailableError);
    await expect(c.query(subscription)).rejects.toThrow(
      'Subscription NewsAdded cannot run: the GraphQL client "default" has no WebSocket endpoint configured',
    );
    expect(() => c.subscribe(subscription)).toThrow(SubscriptionsUnavailableError);
    expect(s.requests).toHaveLength(0);
  });

  describe('errors', () => {
    it('passes GraphQL errors in a 200 response to the error hook once, with the operation name', async () => {
      const s = await api(() => ({ status: 200, body: { errors: [{ message: 'Invalid email or password.' }] } }));
      const { client: c, errors } = client(`${s.url}/graphql`);
      await expect(c.mutate('mutation Login($email: String!) { login(email: $email) { token } }', { email: 'x' })).rejects.toThrow();
      expect(errors.map((e) => [e.operation, e.kind, e.reason])).toEqual([['Login', 'graphql', 'Invalid email or password.']]);
    });

    it('passes HTTP and network errors to the error hook once each, after the retry', async () => {
      const s = await api(() => ({ status: 503, body: { errors: [{ message: 'busy' }] } }));
      const { client: c, errors } = client(`${s.url}/graphql`, { retries: 1 });
      await expect(c.query(NEWS)).rejects.toThrow();
      expect(s.requests).toHaveLength(2);
      const gone = await startTestServer(() => undefined);
      await gone.close();
      const offline = client(`${gone.url}/graphql`, { retries: 0 });
      await expect(offline.client.query(NEWS)).rejects.toThrow();
      expect(errors.map((e) => [e.operation, e.kind, e.status])).toEqual([['NewsIndex', 'http', 503]]);
      expect(offline.errors.map((e) => [e.operation, e.kind])).toEqual([['NewsIndex', 'network']]);
    });

    it('reports a 401 to the error hook and never retries it', async () => {
      const s = await api(() => ({ status: 401, body: { errors: [{ message: 'Token expired' }] } }));
      const { client: c, errors } = client(`${s.url}/graphql`, { retries: 3, getToken: () => 'expired-token' });
      await expect(c.query(NEWS)).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(s.requests).toHaveLength(1);
      expect(errors.map((e) => [e.operation, e.status])).toEqual([['NewsIndex', 401]]);
    });
  });
});
