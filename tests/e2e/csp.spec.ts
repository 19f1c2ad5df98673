import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentSecurityPolicy, cspMetaTag, readSitePolicy, withWebAssembly } from '../../cli/render/csp.ts';
import { startStaticServer, type StaticServer } from '../../cli/serve/static-server.ts';
import { listFiles } from '../helpers/tree.ts';
import { startSentryIngest } from '../helpers/sentry-server.ts';
import { logIn, startLiveSite, DRAFT_TITLE } from './auth-fixtures.ts';
import { startPreview } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';
import { addLink, expect, recordDocuments, test, waitForHydration } from './fixtures.ts';

/**
 * The built pages under the strict Content-Security-Policy the build ships (cli/render/csp.ts): scripts only
 * from the site's own files (no 'unsafe-inline', no 'unsafe-eval'), styles only from its own
 * stylesheets, images, media and requests only from itself (and the API's and the error reporter's
 * origins when they are configured). The boot data is `<script type="application/json">`, which is
 * data, not script, so the policy does not apply to it. Violations are caught three ways: as
 * `securitypolicyviolation` events in the page, as Chromium's console errors, and as the reports the
 * browser posts to `report-uri` (the tests send the policy as a header too, with a report-uri).
 */

let reports: TestServer;
let server: StaticServer;
let policy: string;
let shipped: string;

test.beforeAll(async () => {
  const dir = process.env.E2E_SITE_DIR;
  if (!dir) throw new Error('E2E_SITE_DIR is not set: run the browser tests through playwright.config.ts.');
  reports = await startTestServer((_req, res) => void res.writeHead(204).end());
  // The policy the build ships in every page, sent as a header too with a report-uri, so violations are also posted.
  shipped = (await readSitePolicy(dir))!;
  policy = `${shipped}; report-uri ${reports.url}/csp-report`;
  server = await startStaticServer({ root: dir, headers: { 'Content-Security-Policy': policy } });
});

test.afterAll(async () => {
  await server?.close();
  await reports?.close();
});

/** Collects violation events from the first script on, before any of the page's own. */
async function watchViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`),
    );
  });
}

function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Chromium's console lines for a blocked load or inline code (they survive a navigation, unlike the page's events). */
function watchConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) lines.push(`${page.url()}: ${msg.text()}`);
  });
  return lines;
}

function reportBodies(): string[] {
  return reports.requests.filter((r) => r.url === '/csp-report').map((r) => r.body);
}

test.describe('the policy the build ships', () => {
  test('every page carries it as its first head tag: self only, no inline script, no plugins, no base', async () => {
    const dir = process.env.E2E_SITE_DIR!;
    const expected = contentSecurityPolicy({ publicEndpoint: null, sentryDsn: null });
    expect(shipped).toBe(expected);
    for (const directive of ["default-src 'self'", "script-src 'self'", "object-src 'none'", "base-uri 'none'", "form-action 'self'"])
      expect(expected).toContain(directive);
    expect(expected).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    const pages = (await listFiles(dir)).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(100);
    for (const file of pages) {
      const html = await readFile(join(dir, file), 'utf8');
      // Before anything it governs: the first tag of <head> after the charset. The search page's alone also lets WebAssembly compile (its index is searched by it).
      const policy = file === 'search/index.html' ? withWebAssembly(expected) : expected;
      expect(html, file).toMatch(new RegExp(`<head>\\s*<meta charset="utf-8">\\s*${escapeRegExp(cspMetaTag(policy))}`));
    }
  });

  test('`site preview` sends the same policy as a header, with framing forbidden', async () => {
    const preview = await startPreview(process.env.E2E_SITE_DIR!);
    try {
      for (const path of ['/', '/news', '/no-such-page']) {
        const response = await fetch(preview.url + path);
        expect(response.headers.get('content-security-policy'), path).toBe(`${shipped}; frame-ancestors 'none'`);
        expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
    } finally {
      preview.stop();
    }
  });

  test('in preview mode (an editor logged in, live data and media from the API) there is no violation', async ({ page }) => {
    const site = await startLiveSite();
    try {
      const live = (await readSitePolicy(site.dir))!;
      expect(live).toBe(contentSecurityPolicy({ publicEndpoint: site.backend.url, sentryDsn: null }));
      expect(live).toContain(`connect-src 'self' ${new URL(site.backend.url).origin}`);
      const console = watchConsole(page);
      await watchViolations(page);
      await page.goto(site.url + '/login');
      await waitForHydration(page);
      await logIn(page, site);
      await page.goto(site.url + '/news');
      await waitForHydration(page);
      await expect(page.getByText(DRAFT_TITLE).first()).toBeVisible();
      await page.getByText(DRAFT_TITLE).first().click();
      await expect(page.locator('main h1')).toHaveText(DRAFT_TITLE);
      // The draft's image comes from the API's origin, which the policy allows for images.
      await expect
        .poll(() => page.evaluate(() => [...document.images].filter((i) => i.complete && i.naturalWidth > 0).length))
        .toBeGreaterThan(0);
      expect(await violations(page)).toEqual([]);
      expect(console).toEqual([]);
    } finally {
      await site.close();
    }
  });

  test('with error reporting on, the SDK loads and sends under the policy with no violation', async ({ page }) => {
    const ingest = await startSentryIngest();
    const site = await startLiveSite({ env: { SENTRY_DSN: ingest.dsn } });
    try {
      expect((await readSitePolicy(site.dir))!).toContain(new URL(ingest.dsn).origin);
      const console = watchConsole(page);
      await watchViolations(page);
      await page.goto(site.url + '/news');
      await waitForHydration(page);
      await expect.poll(() => ingest.envelopes.length, { timeout: 20_000 }).toBeGreaterThan(0);
      await page.locator('main a[href^="/news/"]:not([href^="/news/page/"])').first().click();
      await expect(page.locator('main h1')).not.toBeEmpty();
      expect(await violations(page)).toEqual([]);
      expect(console).toEqual([]);
    } finally {
      await site.close();
      await ingest.close();
    }
  });
});

test.describe('under a strict Content-Security-Policy', () => {
  test('every answer carries the policy, and it allows no inline script', async ({ request }) => {
    const response = await request.get(server.url + '/news');
    expect(response.headers()['content-security-policy']).toBe(policy);
    expect(policy).not.toContain('unsafe-inline');
    expect(policy).not.toContain('unsafe-eval');
  });

  test('pages load, hydrate and navigate client-side with no violation', async ({ page, consoleProblems }) => {
    await watchViolations(page);
    const before = reports.requests.length;

    for (const path of [
      '/',
      '/news',
      '/events',
      '/publications',
      '/about/people',
      '/courses',
      '/documents',
      '/research',
      '/login',
      '/no-such-page',
    ]) {
      await page.goto(server.url + path);
      await waitForHydration(page);
      expect(await violations(page), path).toEqual([]);
    }

    // Client-side navigation: route chunks, payloads, the build manifest and prefetching all load under the policy.
    await page.goto(server.url + '/news');
    await waitForHydration(page);
    const documents = recordDocuments(page);
    const article = page.locator('main a[href^="/news/"]:not([href^="/news/page/"])').first();
    const href = (await article.getAttribute('href'))!;
    await article.hover();
    await article.click();
    await expect(page).toHaveURL(server.url + href);
    await expect(page.locator('main h1')).not.toBeEmpty();
    await (await addLink(page, '/events', 'to-events')).click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'events');
    const event = page.locator('main a[href^="/events/"]').first();
    await event.click();
    await expect(page.locator('main h1')).not.toBeEmpty();
    await (await addLink(page, '/nowhere-at-all', 'to-nowhere')).click();
    await expect(page.locator('.error-screen')).toBeVisible();
    await page.goBack();
    await page.waitForTimeout(1500);
    expect(documents).toEqual([]);

    expect(await violations(page)).toEqual([]);
    expect(consoleProblems.filter((p) => /Content Security Policy|Refused to/i.test(p))).toEqual([]);
    expect(reports.requests.length - before, reportBodies().join('\n')).toBe(0);
  });

  test('every route type, opened as the first page of a visit, loads and hydrates with no violation; so do the redirect pages', async ({
    page,
  }) => {
    const dir = process.env.E2E_SITE_DIR!;
    // One page of each route the build wrote (its markup names the route), the 404 page, and one redirect page.
    const firstOfRoute = new Map<string, string>();
    let redirect: string | null = null;
    for (const file of (await listFiles(dir)).filter((f) => f.endsWith('.html'))) {
      const html = await readFile(join(dir, file), 'utf8');
      const route = /data-route="([^"]+)"/.exec(html)?.[1];
      if (route && !firstOfRoute.has(route)) firstOfRoute.set(route, file);
      if (!route && /http-equiv="refresh"/.test(html)) redirect ??= file;
    }
    expect(firstOfRoute.size).toBeGreaterThan(20);
    expect(redirect).not.toBeNull();
    const console = watchConsole(page);
    await watchViolations(page);
    const before = reports.requests.length;
    for (const [route, file] of firstOfRoute) {
      await page.goto(server.url + '/' + file.replace(/(^|\/)index\.html$/, ''));
      await waitForHydration(page);
      await expect(page.locator('[data-route]'), file).toHaveAttribute('data-route', route);
      // Every image, video and audio element of the page has been asked for by now.
      await page.waitForLoadState('load');
      expect(await violations(page), file).toEqual([]);
    }
    await page.goto(server.url + '/no-such-page');
    await waitForHydration(page);
    expect(await violations(page), '/no-such-page').toEqual([]);
    await page.goto(server.url + '/' + redirect!);
    await waitForHydration(page);
    expect(await violations(page), redirect!).toEqual([]);
    expect(console).toEqual([]);
    expect(reports.requests.length - before, reportBodies().join('\n')).toBe(0);
  });

  test('a violation would be seen: an injected inline script is blocked, reported and counted', async ({ page }) => {
    await watchViolations(page);
    const console = watchConsole(page);
    await page.goto(server.url + '/news');
    await waitForHydration(page);
    const before = reports.requests.length;
    const ran = await page.evaluate(() => {
      const w = window as unknown as { __inlineRan?: boolean };
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
      return w.__inlineRan === true;
    });
    expect(ran).toBe(false);
    // Blocked by both the page's meta policy and the header: each reports it.
    await expect.poll(async () => (await violations(page)).length).toBeGreaterThan(0);
    for (const violation of await violations(page)) expect(violation).toMatch(/^script-src-elem blocked inline/);
    await expect.poll(() => console.length).toBeGreaterThan(0);
    await expect.poll(() => reports.requests.length - before, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(reportBodies().at(-1)).toContain('script-src');
  });
});
