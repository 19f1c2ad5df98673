import { describe, expect, it } from 'vitest';
import { createGraphQLClient, isGraphQLRequestError, type GraphQLRequestError } from '../../../runtime/shared/graphql.ts';
import { isLoopbackHost } from '../../../runtime/shared/loopback.ts';
import { redactUrl, redactUrlsIn } from '../../../runtime/shared/redact-url.ts';
import { createMemoryLogger } from '../../../cli/terminal/logger.ts';
import { formatError } from '../../../cli/errors/format-error.ts';

describe('redactUrl', () => {
  it.each([
    ['https://editor:hunter2@cms.example/graphql', 'https://***@cms.example/graphql'],
    ['https://apikey@cms.example/graphql', 'https://***@cms.example/graphql'],
    ['https://cms.example/graphql?access_token=hunter2&site=main', 'https://cms.example/graphql?access_token=***&site=main'],
    ['https://cms.example/graphql?site=main&apiKey=hunter2#top', 'https://cms.example/graphql?site=main&apiKey=***#top'],
    ['https://cms.example/x?X-Amz-Signature=abc&X-Amz-Credential=def', 'https://cms.example/x?X-Amz-Signature=***&X-Amz-Credential=***'],
    ['https://cms.example/graphql?page=2', 'https://cms.example/graphql?page=2'],
    ['http://127.0.0.1:4000/graphql', 'http://127.0.0.1:4000/graphql'],
    ['https://cms.example/user@home', 'https://cms.example/user@home'],
  ])('%s → %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });

  it('redacts every URL in a text and leaves the rest alone', () => {
    expect(redactUrlsIn("could not reach https://a:b@cms.example/graphql?token=t (ECONNREFUSED); 'http://x.example/?secret=s'")).toBe(
      "could not reach https://***@cms.example/graphql?token=*** (ECONNREFUSED); 'http://x.example/?secret=***'",
    );
  });

  it('is what the logger and the error output use', () => {
    const logger = createMemoryLogger();
    logger.info('query', 'asking https://editor:hunter2@cms.example/graphql');
    logger.warn('query', 'slow: https://cms.example/graphql?token=hunter2');
    expect(logger.lines.join('\n')).not.toContain('hunter2');
    expect(formatError(new Error('failed at https://cms.example/graphql?token=hunter2'))).toContain(
      'https://cms.example/graphql?token=***',
    );
  });
});

describe('the GraphQL transport with a token', () => {
  it.each(['localhost', '127.0.0.1', '127.8.9.10', '[::1]'])('treats %s as loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['cms.example', '0.0.0.0', '10.0.0.1', '[::ffff:7f00:1]', 'localhost.example', '128.0.0.1'])(
    'does not treat %s as loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );

  it('refuses plain http to a host that is not loopback before any request, and names the endpoint redacted', async () => {
    let calls = 0;
    const client = createGraphQLClient({
      endpoint: 'http://cms.example/graphql?token=hunter2',
      getToken: () => 'tok',
      fetch: () => (calls++, Promise.reject(new Error('never'))),
    });
    const error = (await client.request('query Site { site { title } }').catch((e: unknown) => e)) as GraphQLRequestError;
    expect(isGraphQLRequestError(error)).toBe(true);
    expect(error.kind).toBe('insecure');
    expect(error.message).toContain('Site was not sent: http://cms.example/graphql?token=*** is plain http');
    expect(calls).toBe(0);
    expect(client.requestCount()).toBe(0);
  });

  it('sends the same request without a token, and over https with one', async () => {
    const seen: string[] = [];
    const answer = (): Promise<Response> =>
      Promise.resolve(new Response(JSON.stringify({ data: { ok: true } }), { headers: { 'content-type': 'application/json' } }));
    const fetchSpy = ((input: RequestInfo | URL, init?: RequestInit) => (
      seen.push(`${String(input)} ${init?.redirect ?? 'follow'}`),
      answer()
    )) as typeof fetch;
    await createGraphQLClient({ endpoint: 'http://cms.example/graphql', fetch: fetchSpy }).request('query A { ok }');
    await createGraphQLClient({ endpoint: 'https://cms.example/graphql', getToken: () => 'tok', fetch: fetchSpy }).request(
      'query B { ok }',
    );
    expect(seen).toEqual(['http://cms.example/graphql follow', 'https://cms.example/graphql manual']);
  });
});
