import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../cli/config/config.ts';
import { contentSecurityPolicy, cspMetaTag, cspOfPage, readSitePolicy, withWebAssembly } from '../../../../cli/render/csp.ts';
import { policyHeaders } from '../../../../cli/serve/preview.ts';

/** The directives of a policy, by name. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split('; ')
      .map((d) => d.split(' '))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('the Content-Security-Policy the build derives (issue 16.4)', () => {
  it('allows only the site itself when no public endpoint and no error reporter are configured', () => {
    expect(contentSecurityPolicy({ publicEndpoint: null, sentryDsn: null })).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; media-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'",
    );
  });

  it("widens images alone for an image service's origin", () => {
    const policy = directives(
      contentSecurityPolicy({ publicEndpoint: null, sentryDsn: null, images: { service: { url: 'https://img.example:8080' } } }),
    );
    expect(policy['img-src']).toEqual(["'self'", 'https://img.example:8080']);
    for (const name of ['default-src', 'script-src', 'style-src', 'media-src', 'connect-src'])
      expect(policy[name], name).toEqual(["'self'"]);
  });

  it("widens requests, images and media for the public API's origin and requests for the reporter's, and nothing else", () => {
    const policy = directives(
      contentSecurityPolicy({
        publicEndpoint: 'https://api.example:8443/v1/graphql',
        sentryDsn: 'https://publickey@o1.ingest.sentry.io/42',
      }),
    );
    expect(policy['img-src']).toEqual(["'self'", 'https://api.example:8443']);
    expect(policy['media-src']).toEqual(["'self'", 'https://api.example:8443']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://api.example:8443', 'https://o1.ingest.sentry.io']);
    for (const name of ['default-src', 'script-src', 'style-src', 'form-action']) expect(policy[name], name).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['base-uri']).toEqual(["'none'"]);
    // Origins only: no path, no DSN key, no wildcard, nothing inline.
    expect(JSON.stringify(policy)).not.toMatch(/graphql|publickey|\/42|\*|unsafe/);
  });

  it('names an origin once when the API and the reporter share it', () => {
    const policy = directives(
      contentSecurityPolicy({ publicEndpoint: 'https://cms.example/graphql', sentryDsn: 'https://key@cms.example/3' }),
    );
    expect(policy['connect-src']).toEqual(["'self'", 'https://cms.example']);
  });

  it('is read back from a page exactly as written, and from a built folder by its home page or its 404 page', async () => {
    const policy = contentSecurityPolicy({ publicEndpoint: 'http://127.0.0.1:4000/graphql', sentryDsn: null });
    const page = `<!doctype html><html><head><meta charset="utf-8">${cspMetaTag(policy)}<title>x</title></head></html>`;
    expect(page).not.toContain("'self'");
    expect(cspOfPage(page)).toBe(policy);
    expect(cspOfPage('<html><head></head></html>')).toBeNull();
    const dir = await mkdtemp(join(tmpdir(), 'site-csp-'));
    expect(await readSitePolicy(dir)).toBeNull();
    await writeFile(join(dir, '404.html'), page);
    expect(await readSitePolicy(dir)).toBe(policy);
    await writeFile(join(dir, 'index.html'), '<html><head></head></html>');
    expect(await readSitePolicy(dir)).toBeNull();
  });

  it('is on by default; csp: false in site.config.ts turns it off, and the flag wins over the file', () => {
    expect(resolveConfig({}, {}, '/work', {}).csp).toBe(true);
    expect(resolveConfig({}, {}, '/work', { csp: false }).csp).toBe(false);
    expect(resolveConfig({ csp: false }, {}, '/work', {}).csp).toBe(false);
    expect(resolveConfig({ csp: true }, {}, '/work', { csp: false }).csp).toBe(true);
  });

  it("widened for a route that runs WebAssembly (the site search), adds 'wasm-unsafe-eval' to script-src and nothing else", () => {
    const policy = contentSecurityPolicy({ publicEndpoint: 'https://api.example/graphql', sentryDsn: null });
    const widened = directives(withWebAssembly(policy));
    expect(widened['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect({ ...widened, 'script-src': directives(policy)['script-src'] }).toEqual(directives(policy));
    expect(withWebAssembly(policy)).not.toMatch(/'unsafe-eval'|unsafe-inline/);
  });
});

describe("`site preview`'s policy header", () => {
  it("is each page's own policy, the site's with WebAssembly for the search index's files (its worker), and the site's for the rest", async () => {
    const site = contentSecurityPolicy({ publicEndpoint: null, sentryDsn: null });
    const search = withWebAssembly(site);
    const dir = await mkdtemp(join(tmpdir(), 'site-csp-'));
    const page = (policy: string): string =>
      `<!doctype html><html><head><meta charset="utf-8">${cspMetaTag(policy)}<title>x</title></head></html>`;
    await mkdir(join(dir, 'search'), { recursive: true });
    await mkdir(join(dir, '_search'), { recursive: true });
    await writeFile(join(dir, 'index.html'), page(site));
    await writeFile(join(dir, 'search/index.html'), page(search));
    await writeFile(join(dir, 'plain.html'), '<!doctype html><title>no policy</title>');
    const headers = await policyHeaders(dir);
    const policyOf = async (file: string | null): Promise<string | undefined> =>
      (await headers(file === null ? null : join(dir, file)))['content-security-policy'];
    // Each with framing forbidden, which only a header can say.
    const framed = (policy: string): string => `${policy}; frame-ancestors 'none'`;
    expect(await policyOf('index.html')).toBe(framed(site));
    expect(await policyOf('search/index.html')).toBe(framed(search));
    expect(await policyOf('_search/pagefind-worker.js')).toBe(framed(search));
    expect(await policyOf('_assets/entry.js')).toBe(framed(site));
    expect(await policyOf('plain.html')).toBe(framed(site));
    expect(await policyOf(null)).toBe(framed(site));
    // A site built with --no-csp gets no policy but that.
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>no policy</title>');
    expect(await (await policyHeaders(dir))(join(dir, 'search/index.html'))).toEqual({
      'content-security-policy': "frame-ancestors 'none'",
    });
  });
});
