import { afterEach, describe, expect, it } from 'vitest';
import { createGraphQLClient, isGraphQLRequestError, type GraphQLRequestError } from '../../../runtime/shared/graphql.ts';
import { sendJson, startTestServer, type TestServer } from '../../helpers/http-server.ts';
import { rejectionOf } from '../../helpers/rejection.ts';

const QUERY = 'query Greeting($name: String) { hello(name: $name) }';
let server: TestServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

const failure = (promise: Promise<unknown>): Promise<GraphQLRequestError> => rejectionOf(promise, isGraphQLRequestError);

describe('the GraphQL client', () => {
  it('sends a Bearer token only when one exists', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, { data: { hello: 'hi' } }));
    let token: string | null = null;
    const client = createGraphQLClient({ endpoint: `${server.url}/graphql`, getToken: () => token, dedupe: false });
    await client.request(QUERY);
    token = 'secret-token';
    await client.request(QUERY);
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    expect(server.requests[1]?.headers.authorization).toBe('Bearer secret-token');
  });

  it('shares one request between identical queries in flight', async () => {
    server = await startTestServer((_req, res) => void setTimeout(() => sendJson(res, 200, { data: { hello: 'hi' } }), 50));
    const client = createGraphQLClient({ endpoint: `${server.url}/graphql` });
    const results = await Promise.all([
      client.request(QUERY, { name: 'a' }),
      client.request(QUERY, { name: 'a' }),
      client.request(QUERY, { name: 'b' }),
    ]);
    expect(results).toEqual([{ hello: 'hi' }, { hello: 'hi' }, { hello: 'hi' }]);
    expect(server.requests).toHaveLength(2);
  });

  it('retries 503 and 429 (honouring Retry-After) until the server recovers', async () => {
    const answers = [503, 429];
    server = await startTestServer((_req, res) => {
      const status = answers.shift();
      if (status === 429) sendJson(res, 429, { errors: [{ message: 'slow down' }] }, { 'retry-after': '1' });
      else if (status) sendJson(res, status, { errors: [{ message: 'busy' }] });
      else sendJson(res, 200, { data: { hello: 'hi' } });
    });
    const client = createGraphQLClient({ endpoint: `${server.url}/graphql`, backoffMs: () => 10 });
    const started = Date.now();
    await expect(client.request(QUERY)).resolves.toEqual({ hello: 'hi' });
    expect(server.requests).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('does not retry a 400 and names the operation', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 400, { errors: [{ message: 'Cannot query field "x"' }] }));
    const error = await failure(createGraphQLClient({ endpoint: `${server.url}/graphql` }).request(QUERY));
    expect(server.requests).toHaveLength(1);
    expect(error.operation).toBe('Greeting');
    expect(error.status).toBe(400);
  });

  it('reports GraphQL errors in a 200 answer to the shared error hook', async () => {
    server = await startTestServer((_req, res) => sendJson(res, 200, { data: null, errors: [{ message: 'Boom' }] }));
    const seen: GraphQLRequestError[] = [];
    const error = await failure(createGraphQLClient({ endpoint: `${server.url}/graphql`, onError: (e) => seen.push(e) }).request(QUERY));
    expect(error.kind).toBe('graphql');
    expect(error.message).toBe('Greeting returned GraphQL errors: Boom');
    expect(seen).toEqual([error]);
  });

  it('gives up on an endpoint nobody listens on, naming it', async () => {
    const error = await failure(
      createGraphQLClient({ endpoint: 'http://127.0.0.1:9/graphql', retries: 1, backoffMs: () => 10 }).request(QUERY),
    );
    expect(error.kind).toBe('network');
    expect(error.message).toContain('http://127.0.0.1:9/graphql');
  });

  it('abandons a request that never answers after the timeout', async () => {
    server = await startTestServer(() => undefined);
    const error = await failure(createGraphQLClient({ endpoint: `${server.url}/graphql`, timeoutMs: 200, retries: 0 }).request(QUERY));
    expect(error.kind).toBe('timeout');
  });
});
