import { afterEach, describe, expect, it } from 'vitest';
import { authorizationFor, createGraphQLClient, isGraphQLRequestError, type GraphQLRequestError } from '../../../runtime/shared/graphql.ts';
import { isInsecureTokenEndpoint, isLoopbackHost } from '../../../runtime/shared/loopback.ts';
import { sendJson, startTestServer, type TestServer } from '../../helpers/http-server.ts';
import { rejectionOf } from '../../helpers/rejection.ts';

const QUERY = 'query Item { item { title } }';
let servers: TestServer[] = [];

afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

/** The token goes to the API endpoint alone, never in clear over a network and never after a redirect. */
describe('where the GraphQL client sends a token', () => {
  it('calls plain http insecure only for a host that is not loopback', () => {
    expect(
      ['http://cms.example/graphql', 'http://10.0.0.5:4000/graphql', 'http://127.example/graphql', 'http://localhost.example/graphql'].map(
        isInsecureTokenEndpoint,
      ),
    ).toEqual([true, true, true, true]);
    expect(
      [
        'https://cms.example/graphql',
        'http://127.0.0.1:4000/graphql',
        'http://127.1.2.3/graphql',
        'http://localhost:4000/graphql',
        'http://[::1]:4000/graphql',
        'not a url',
      ].map(isInsecureTokenEndpoint),
    ).toEqual([false, false, false, false, false, false]);
    expect(['localhost', '[::1]', '127.0.0.1', '127.255.255.255'].map(isLoopbackHost)).toEqual([true, true, true, true]);
    expect(
      ['localhost.example', '::1', '128.0.0.1', '127.0.0.1.example', 'x127.0.0.1', '127.0.0', '127.0.0.1000'].map(isLoopbackHost),
    ).toEqual([false, false, false, false, false, false, false]);
  });

  it('refuses to send a token over plain http to a host that is not loopback, before any network I/O', async () => {
    let fetched = 0;
    const client = createGraphQLClient({
      endpoint: 'http://cms.example/graphql',
      getToken: () => 'secret',
      fetch: async () => (fetched++, new Response('{}')),
      retries: 0,
    });
    const error = await rejectionOf(client.request(QUERY), isGraphQLRequestError);
    expect([error.kind, fetched]).toEqual(['insecure', 0]);
    expect(error.message).not.toContain('secret');
  });

  it('never follows a redirect with a token, and follows one without', async () => {
    const target = await startTestServer((_req, res) => sendJson(res, 200, { data: { item: { title: 'moved' } } }));
    const api = await startTestServer((_req, res) => void res.writeHead(307, { location: `${target.url}/graphql` }).end());
    servers.push(target, api);
    let token: string | null = 'secret';
    const client = createGraphQLClient({ endpoint: `${api.url}/graphql`, getToken: () => token, retries: 0, dedupe: false });
    const error: GraphQLRequestError = await rejectionOf(client.request(QUERY), isGraphQLRequestError);
    expect([error.kind, error.status]).toEqual(['redirect', 307]);
    expect(error.message).toContain(`${target.url}/graphql`);
    expect(target.requests).toHaveLength(0);
    token = null;
    expect(await client.request(QUERY)).toEqual({ item: { title: 'moved' } });
    expect(target.requests.map((r) => r.headers.authorization ?? null)).toEqual([null]);
  });

  it('sends a token with a scheme word as it is, and any other as a Bearer token', () => {
    expect(['abc', 'Bearer abc', 'Token abc', 'abc def', '1x abc'].map(authorizationFor)).toEqual([
      'Bearer abc',
      'Bearer abc',
      'Token abc',
      'abc def',
      'Bearer 1x abc',
    ]);
  });
});
