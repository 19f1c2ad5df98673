import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { runCli } from '../helpers/cli.ts';

describe('site build configuration precedence (environment and flags)', () => {
  let backend: ContentServer;
  beforeAll(async () => {
    backend = await startContentServer();
  });
  afterAll(() => backend.close());

  // Nothing listens on port 9: a build that used GRAPHQL_ENDPOINT would fail with EndpointUnreachable.
  const env = { GRAPHQL_ENDPOINT: 'http://127.0.0.1:9/graphql', SITE_URL: 'https://env.institute.example' };

  it('takes the environment over the defaults, and flags over the environment', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'site-config-')), 'site');
    const result = await runCli(['build', '--endpoint', backend.url, '--out', out, '--quiet', '--no-report'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const sitemap = await readFile(join(out, 'sitemap.xml'), 'utf8');
    // SITE_URL beat the backend's site.url (the default), while --endpoint beat GRAPHQL_ENDPOINT.
    expect(sitemap).toContain('<loc>https://env.institute.example/news</loc>');
    expect(sitemap).not.toContain('https://institute.example/');
  }, 240_000);

  it('takes --base-url over SITE_URL', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'site-config-')), 'site');
    const result = await runCli(
      ['build', '--endpoint', backend.url, '--base-url', 'https://flag.institute.example', '--out', out, '--quiet', '--no-report'],
      { env },
    );
    expect(result.code).toBe(0);
    const html = await readFile(join(out, 'news/index.html'), 'utf8');
    expect(html).toContain('<link rel="canonical" href="https://flag.institute.example/news">');
  }, 240_000);

  it('uses the environment when no flag is given, and says which setting was wrong', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'site-config-')), 'site');
    // An earlier build's report must not pass for this build's, which fails before it has pages to report on.
    await writeFile(join(out, '..', 'build-report.json'), '{"status":"succeeded"}');
    const result = await runCli(['build', '--out', out, '--retries', '0'], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[EndpointUnreachable] The GraphQL endpoint http://127.0.0.1:9/graphql could not be reached');
    expect(await readdir(join(out, '..'))).toEqual([]);
    const bad = await runCli(['build', '--out', out], { env: { SITE_URL: 'institute.example' } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      "[InvalidOption] Expected SITE_URL to be an absolute http(s) URL such as http://127.0.0.1:4000/graphql, got 'institute.example'.",
    );
  }, 240_000);
});
