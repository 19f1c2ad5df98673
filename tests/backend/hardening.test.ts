import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { buildSchema, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSampleContent } from '../../backend/content/sample.ts';
import { draftOnlyMedia, queryLimitsRule } from '../../backend/guards.ts';
import { loadSchemaSource } from '../../backend/schema.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { ROOT, runCli } from '../helpers/cli.ts';
import { gql, loginToken } from './client.ts';

/** The embedded backend is safe to leave running on a laptop (issue 16.8), tested on the real server. */

let server: ContentServer;
const SITE_ORIGIN = new URL(loadSampleContent().site.url).origin;

beforeAll(async () => {
  server = await startContentServer();
});

afterAll(async () => {
  await server?.close();
});

async function preflight(origin: string): Promise<Response> {
  return fetch(server.url, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
  });
}

describe('CORS', () => {
  it('answers pages on this machine and the site itself, and no other page on the web', async () => {
    for (const origin of ['http://127.0.0.1:4173', 'http://localhost:3000', 'http://[::1]:8080', SITE_ORIGIN]) {
      const answer = await preflight(origin);
      expect(answer.headers.get('access-control-allow-origin'), origin).toBe(origin);
    }
    for (const origin of ['https://evil.example', 'http://127.0.0.1.evil.example', 'null']) {
      const answer = await preflight(origin);
      expect(answer.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('refuses a request that carries a foreign Origin outright: a simple POST from another site has no effect', async () => {
    const answer = await fetch(server.url, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
      body: JSON.stringify({ query: 'mutation { login(email: "editor@institute.example", password: "preview-editor") { token } }' }),
    });
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('https://evil.example are not allowed');
  });
});

describe('query limits', () => {
  it('refuse a query nested too deep, with too many aliases or too many fields, saying which limit', async () => {
    const ordinary = await gql(server, 'query Ordinary { site { name } newsItems(first: 1) { nodes { id image { url } } } }');
    expect(ordinary.errors).toBeUndefined();
    const nested = `query Nested { a: site { ${'n: navigation { '.repeat(15)}label${' }'.repeat(15)} } }`;
    const tooDeep = await gql(server, nested);
    expect(tooDeep.errors?.[0]?.message).toMatch(/^Nested is nested \d+ levels deep; this backend answers at most 12\.$/);
    const aliases = `query Many { ${Array.from({ length: 40 }, (_, i) => `a${i}: site { name }`).join(' ')} }`;
    expect((await gql(server, aliases)).errors?.map((e) => e.message)).toContain('Many uses 40 aliases; this backend answers at most 30.');
  });

  it("allows every query of the site's own", async () => {
    const schema = buildSchema(loadSchemaSource());
    const documents = await siteDocuments();
    expect(documents.length).toBeGreaterThan(10);
    for (const document of documents) {
      const errors = validate(schema, parse(document), [queryLimitsRule]);
      expect(
        errors.map((e) => e.message),
        document.slice(0, 80),
      ).toEqual([]);
    }
  });

  it('measures each fragment once: fragments that each spread the next one twice are refused at once, not after hours', async () => {
    // 2^30 fields when counted where spread; measured spread by spread this held the process for about an hour.
    const chain = Array.from({ length: 30 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const document = `query Bomb { ...F0 } ${chain} fragment F30 on Query { site { name } }`;
    const started = performance.now();
    const errors = validate(buildSchema(loadSchemaSource()), parse(document), [queryLimitsRule]);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(errors.map((e) => e.message)).toContain(`Bomb selects ${2 ** 31} fields; this backend answers at most 600.`);
    // And through the server, as a GET a page elsewhere could make with an <img>.
    const viaGet = await fetch(`${server.url}?query=${encodeURIComponent(document)}`, { headers: { accept: 'application/json' } });
    expect(((await viaGet.json()) as { errors?: { message: string }[] }).errors?.map((e) => e.message)).toContain(
      `Bomb selects ${2 ** 31} fields; this backend answers at most 600.`,
    );
  });

  it('refuses a document of more tokens than any query needs while reading it', async () => {
    const long = `query Long { site { ${'name '.repeat(6000)} } }`;
    expect((await gql(server, long)).errors?.[0]?.message).toMatch(/Document contains more tha[nt] 5000 tokens/);
  });

  it('refuses a list larger than the backend serves, clearly', async () => {
    const result = await gql(server, 'query Huge { newsItems(first: 100000) { nodes { id } } }');
    expect(result.errors?.[0]?.message).toMatch(/Argument "first" must be between 0 and \d+, got 100000\./);
  });
});

describe('DNS rebinding', () => {
  it('answers requests for its loopback names and the site host, and refuses another host name pointed at it', async () => {
    const query = `${server.url}?query=${encodeURIComponent('{ site { name } }')}`;
    const asked = (host: string) =>
      new Promise<number>((resolve, reject) => {
        // fetch() does not let a page or a test set Host; a raw request does, as a rebinding page's browser would send it.
        const url = new URL(query);
        import('node:http').then(({ request }) => {
          const req = request(
            { host: url.hostname, port: url.port, path: url.pathname + url.search, headers: { host, accept: 'application/json' } },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', reject);
          req.end();
        }, reject);
      });
    const port = new URL(server.url).port;
    expect(await asked(`127.0.0.1:${port}`)).toBe(200);
    expect(await asked(`localhost:${port}`)).toBe(200);
    expect(await asked(new URL(SITE_ORIGIN).host)).toBe(200);
    expect(await asked(`rebind.attacker.example:${port}`)).toBe(403);
  });
});

describe('the media of drafts', () => {
  it("are served to an editor's token, or with the key the API gives an editor's browser, and to nobody else", async () => {
    const content = loadSampleContent();
    const hidden = draftOnlyMedia(content);
    const draft = content.news.find((n) => n.status === 'DRAFT' && n.image && hidden.has(n.image.url))!;
    const path = draft.image!.url;
    expect((await fetch(server.origin + path)).status).toBe(404);
    // A page elsewhere on the web that points an <img> at it gets nothing either.
    expect((await fetch(server.origin + path, { headers: { referer: 'https://evil.example/page' } })).status).toBe(404);
    const token = await loginToken(server, 'editor@institute.example', 'preview-editor');
    const withToken = await fetch(server.origin + path, { headers: { authorization: `Bearer ${token}` } });
    expect(withToken.status).toBe(200);
    expect(withToken.headers.get('cache-control')).toBe('private, no-store');
    // The editor's browser (its request carries an Origin) gets the URL with its key, which opens that file only.
    const answer = await fetch(server.url, {
      method: 'POST',
      headers: { origin: 'http://127.0.0.1:4173', authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query D($s: String!) { newsItem(slug: $s) { image { url } } }', variables: { s: draft.slug } }),
    });
    const keyed = ((await answer.json()) as { data: { newsItem: { image: { url: string } } } }).data.newsItem.image.url;
    expect(keyed).toMatch(new RegExp(`^${path.replace(/[.]/g, '\\.')}\\?key=[\\w-]{32}$`));
    expect((await fetch(server.origin + keyed)).status).toBe(200);
    expect((await fetch(server.origin + path + '?key=' + 'x'.repeat(32))).status).toBe(404);
    // The build (no Origin) gets the URL as stored: its pages never carry a key.
    const built = await gql<{ newsItem: { image: { url: string } } }>(
      server,
      'query D($s: String!) { newsItem(slug: $s) { image { url } } }',
      { s: draft.slug },
      token,
    );
    expect(built.data?.newsItem.image.url).toBe(path);
    // A published item's media stay public.
    const published = [...content.media.keys()].find((p) => !hidden.has(p))!;
    expect((await fetch(server.origin + published)).status).toBe(200);
  });
});

describe('logins', () => {
  it('are refused for a while after ten failures from one address, and a correct one before that works', async () => {
    const own = await startContentServer();
    try {
      const login = (password: string): ReturnType<typeof gql> =>
        gql(own, 'mutation L($e: String!, $p: String!) { login(email: $e, password: $p) { token } }', {
          e: 'editor@institute.example',
          p: password,
        });
      for (let i = 0; i < 5; i++) expect((await login('wrong')).errors?.[0]?.message).toBe('Invalid email or password.');
      expect((await login('preview-editor')).errors).toBeUndefined();
      for (let i = 0; i < 10; i++) expect((await login('wrong')).errors?.[0]?.message).toBe('Invalid email or password.');
      const refused = await login('preview-editor');
      expect(refused.errors?.[0]?.message).toMatch(/^Too many failed logins from this address; try again in \d+ s\.$/);
    } finally {
      await own.close();
    }
  });
});

describe('logins from many addresses', () => {
  /** A wrong login for `email` sent from the loopback address `from` (127.0.0.0/8: each a client of its own). */
  const loginFrom = (
    server: ContentServer,
    from: string,
    email: string,
    password = 'wrong',
  ): Promise<{ errors?: { message: string; extensions?: { code?: string } }[] }> =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({
        query: 'mutation L($e: String!, $p: String!) { login(email: $e, password: $p) { token } }',
        variables: { e: email, p: password },
      });
      const url = new URL(server.url);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          localAddress: from,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(JSON.parse(text) as { errors?: { message: string }[] }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it("refuse a guesser who changes address with every try once the account's limit is reached", async () => {
    const own = await startContentServer();
    try {
      // One try from each of 30 addresses: no address comes near its own limit.
      for (let i = 0; i < 30; i++) {
        expect((await loginFrom(own, `127.0.1.${i + 1}`, 'editor@institute.example')).errors?.[0]?.message).toBe(
          'Invalid email or password.',
        );
      }
      const refused = await loginFrom(own, '127.0.2.1', 'Editor@Institute.example ');
      expect(refused.errors?.[0]?.message).toMatch(/^Too many failed logins for this account; try again in \d+ s\.$/);
      expect(refused.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    } finally {
      await own.close();
    }
  });

  it('refuse every guess once the backend has seen its limit of failures, whatever the addresses and emails', async () => {
    const own = await startContentServer();
    try {
      for (let i = 0; i < 300; i++) {
        const answer = await loginFrom(own, `127.0.${3 + Math.floor(i / 250)}.${(i % 250) + 1}`, `guess-${i}@example.org`);
        expect(answer.errors?.[0]?.message).toBe('Invalid email or password.');
      }
      expect((await loginFrom(own, '127.0.9.1', 'someone@example.org')).errors?.[0]?.message).toMatch(
        /^Too many failed logins on this backend; try again in \d+ s\.$/,
      );
    } finally {
      await own.close();
    }
  });
});

describe('listening', () => {
  it('refuses an address other machines can reach while the sample editor account is in force, before listening', async () => {
    const result = await runCli(['content', 'serve', '--host', '0.0.0.0', '--port', '0'], {
      env: { CONTENT_EDITOR_PASSWORD: undefined, CONTENT_EDITOR_EMAIL: undefined },
      timeoutMs: 30_000,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('[SampleCredentialsExposed] The content backend will not listen on 0.0.0.0');
    expect(result.stderr).toMatch(/--allow-remote|CONTENT_EDITOR_PASSWORD/);
    expect(result.stdout).not.toContain('Content backend at');
    await expect(startContentServer({ host: '0.0.0.0' })).rejects.toThrow(/will not listen on 0\.0\.0\.0/);
  });
});

/** Every GraphQL document of the site, as the build and the browser send them. */
async function siteDocuments(): Promise<string[]> {
  const found: string[] = [];
  for (const file of readdirSync(join(ROOT, 'site/queries')).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(join(ROOT, 'site/queries', file))) as Record<string, unknown>;
    for (const value of Object.values(module)) if (typeof value === 'string' && /^\s*(query|mutation)\b/m.test(value)) found.push(value);
  }
  return found;
}
