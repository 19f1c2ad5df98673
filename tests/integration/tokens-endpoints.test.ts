import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { runCli } from '../helpers/cli.ts';
import { startFaultServer } from '../helpers/fault-server.ts';
import { sendJson, startTestServer, type TestServer } from '../helpers/http-server.ts';

/**
 * The build's token and endpoints (issue 16, point 6), with the real CLI against real servers on
 * 127.0.0.1: GRAPHQL_TOKEN never follows a redirect and never travels over plain http to a host that is
 * not loopback; a public endpoint with credentials is refused; credentials in an endpoint are redacted
 * wherever the build prints or records it.
 */

const TOKEN = 'build-token-6a1f93c2e7';
const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

async function server(handler: Parameters<typeof startTestServer>[0]): Promise<TestServer> {
  const started = await startTestServer(handler);
  open.push(started);
  return started;
}

async function backend(): Promise<ContentServer> {
  const started = await startContentServer();
  open.push(started);
  return started;
}

async function outDir(): Promise<{ out: string; report: string }> {
  const root = await mkdtemp(join(tmpdir(), 'site-tokens-'));
  return { out: join(root, 'site'), report: join(root, 'build-report.json') };
}

/** The environment of a build that only its arguments configure. */
const CLEAN_ENV = { GRAPHQL_ENDPOINT: undefined, PUBLIC_GRAPHQL_ENDPOINT: undefined, GRAPHQL_TOKEN: undefined, SITE_URL: undefined };

describe('a redirecting endpoint', () => {
  it('with GRAPHQL_TOKEN set fails the build naming the endpoint and the Location, and the token never reaches the redirect target', async () => {
    const redirector = await server((req, res) => {
      if (req.url === '/graphql') return void res.writeHead(307, { location: '/moved/graphql' }).end();
      sendJson(res, 500, { errors: [{ message: 'the redirect target must never be asked' }] });
    });
    const { out, report } = await outDir();
    const result = await runCli(['build', '--out', out, '--report', report, '--endpoint', `${redirector.url}/graphql`, '--retries', '0'], {
      env: { ...CLEAN_ENV, GRAPHQL_TOKEN: TOKEN },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `[EndpointRedirected] The GraphQL endpoint ${redirector.url}/graphql answered with a redirect to ${redirector.url}/moved/graphql (HTTP 307)`,
    );
    expect(result.stderr).toContain('Hint: Use the final URL (the Location above) as --endpoint');
    // Same origin, so fetch would have kept the Authorization header: the build asked the endpoint once and went no further.
    expect(redirector.requests.map((r) => r.url)).toEqual(['/graphql']);
    expect(
      redirector.requests
        .filter((r) => r.url !== '/graphql' || r.headers.authorization !== undefined)
        .map((r) => [r.url, r.headers.authorization]),
    ).toEqual([['/graphql', `Bearer ${TOKEN}`]]);
    expect(`${result.stdout}${result.stderr}`).not.toContain(TOKEN);
  });

  it('without a token is followed, as fetch does: the build completes from the final address', async () => {
    const cms = await backend();
    // The GraphQL endpoint moved; media stay on the first origin (the build follows media redirects only
    // within the backend's origin), so this stand-in serves them from the CMS itself.
    const redirector = await server(async (req, res) => {
      if (!req.url.startsWith('/media/')) return void res.writeHead(308, { location: cms.url }).end();
      const media = await fetch(new URL(req.url, cms.url));
      res
        .writeHead(media.status, { 'content-type': media.headers.get('content-type') ?? 'application/octet-stream' })
        .end(Buffer.from(await media.arrayBuffer()));
    });
    const { out, report } = await outDir();
    const result = await runCli(
      ['build', '--out', out, '--report', report, '--endpoint', `${redirector.url}/graphql`, '--public-endpoint', cms.url, '--quiet'],
      { env: CLEAN_ENV },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(redirector.requests.length).toBeGreaterThan(0);
    expect(cms.requestCount()).toBeGreaterThanOrEqual(redirector.requests.filter((r) => !r.url.startsWith('/media/')).length);
  });
});

describe('a token over plain http', () => {
  it('to a host that is not loopback is refused before any request', async () => {
    // 0.0.0.0 is not a loopback address, yet on this machine it reaches the server listening on
    // 127.0.0.1: had the build sent anything, this server would have seen it.
    const trap = await server((_req, res) => sendJson(res, 200, { data: null }));
    const port = new URL(trap.url).port;
    expect((await fetch(`http://0.0.0.0:${port}/probe`)).status).toBe(200);
    trap.requests.length = 0;

    const { out, report } = await outDir();
    const result = await runCli(
      [
        'build',
        '--out',
        out,
        '--report',
        report,
        '--endpoint',
        `http://0.0.0.0:${port}/graphql`,
        '--public-endpoint',
        'https://cms.institute.example/graphql',
      ],
      { env: { ...CLEAN_ENV, GRAPHQL_TOKEN: TOKEN } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `[InvalidOption] Expected --endpoint to be an https URL, or http to a loopback host (127.0.0.1, ::1, localhost), while GRAPHQL_TOKEN is set`,
    );
    expect(result.stderr).toContain(`http://0.0.0.0:${port}/graphql`);
    expect(trap.requests).toEqual([]);
  });

  it('to a loopback host is sent', async () => {
    const cms = await backend();
    const { out, report } = await outDir();
    const result = await runCli(
      [
        'build',
        '--out',
        out,
        '--report',
        report,
        '--endpoint',
        cms.url.replace('127.0.0.1', 'localhost'),
        '--public-endpoint',
        cms.url,
        '--quiet',
      ],
      { env: { ...CLEAN_ENV, GRAPHQL_TOKEN: TOKEN } },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

describe('the public endpoint', () => {
  it.each([
    [
      'user info in --public-endpoint',
      ['--public-endpoint', 'https://editor:hunter2@cms.institute.example/graphql'],
      {},
      '--public-endpoint',
    ],
    [
      'a query string in --public-endpoint',
      ['--public-endpoint', 'https://cms.institute.example/graphql?access_token=hunter2'],
      {},
      '--public-endpoint',
    ],
    [
      'a query string in PUBLIC_GRAPHQL_ENDPOINT',
      [],
      { PUBLIC_GRAPHQL_ENDPOINT: 'https://cms.institute.example/graphql?key=hunter2' },
      'PUBLIC_GRAPHQL_ENDPOINT',
    ],
    [
      'an --endpoint with user info that the public endpoint defaults to',
      ['--endpoint', 'https://editor:hunter2@cms.institute.example/graphql'],
      {},
      '--public-endpoint (which defaults to --endpoint)',
    ],
  ])('with %s is refused, naming the option, without echoing the secret', async (_name, args, env, option) => {
    const { out } = await outDir();
    const result = await runCli(['build', '--out', out, ...args], { env: { ...CLEAN_ENV, ...env } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `[InvalidOption] Expected ${option} to be a URL without user info or query string (it is written into every page)`,
    );
    expect(result.stderr).not.toContain('hunter2');
    expect(result.stderr).toContain('***');
  });
});

describe('an endpoint with credentials', () => {
  it('is redacted in the error output and the build report', async () => {
    // The site query and the crawl succeed, so the build gets as far as a report; one kind of page fails.
    const cms = await startFaultServer();
    open.push(cms);
    cms.setRules([{ operation: 'EditorialPage', fault: { kind: 'status', status: 502 } }]);
    const { out, report } = await outDir();
    const endpoint = `${cms.url}?access_token=hunter2&site=main`;
    const result = await runCli(
      [
        'build',
        '--out',
        out,
        '--report',
        report,
        '--endpoint',
        endpoint,
        '--public-endpoint',
        'https://cms.institute.example/graphql',
        '--retries',
        '0',
        '--verbose',
      ],
      { env: CLEAN_ENV },
    );
    expect(result.code).toBe(1);
    const written = await readFile(report, 'utf8');
    expect(result.stderr).toContain(`[PagesFailed]`);
    expect(result.stderr).toContain(`EditorialPage failed with HTTP 502 from ${cms.url}?access_token=***&site=main`);
    expect(written).toContain(`EditorialPage failed with HTTP 502 from ${cms.url}?access_token=***&site=main`);
    for (const text of [result.stdout, result.stderr, written]) expect(text).not.toContain('hunter2');
  });
});
