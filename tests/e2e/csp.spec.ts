import type { Page } from '@playwright/test';
import { startStaticServer, type StaticServer } from '../../cli/static-server.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';
import { addLink, expect, recordDocuments, test, waitForHydration } from './fixtures.ts';

/**
 * The built pages under a strict Content-Security-Policy: scripts only from the site's own files (no
 * 'unsafe-inline', no 'unsafe-eval'), styles only from its own stylesheets, images from itself or data:
 * URLs, requests only to itself. The boot data is `<script type="application/json">`, which is data,
 * not script, so the policy does not apply to it. Violations are caught twice: as
 * `securitypolicyviolation` events in the page, and as the reports the browser posts to `report-uri`.
 */

let reports: TestServer;
let server: StaticServer;
let policy: string;

test.beforeAll(async () => {
  const dir = process.env.E2E_SITE_DIR;
  if (!dir) throw new Error('E2E_SITE_DIR is not set: run the browser tests through playwright.config.ts.');
  reports = await startTestServer((_req, res) => void res.writeHead(204).end());
  policy = `default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; report-uri ${reports.url}/csp-report`;
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
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`));
  });
}

function violations(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations);
}

function reportBodies(): string[] {
  return reports.requests.filter((r) => r.url === '/csp-report').map((r) => r.body);
}

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

    for (const path of ['/', '/news', '/events', '/publications', '/about/people', '/courses', '/documents', '/research', '/login', '/no-such-page']) {
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

  test('a violation would be seen: an injected inline script is blocked, reported and counted', async ({ page }) => {
    await watchViolations(page);
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
    await expect.poll(() => violations(page)).toEqual([expect.stringMatching(/^script-src-elem blocked inline/)]);
    await expect.poll(() => reports.requests.length - before, { timeout: 10_000 }).toBeGreaterThan(0);
    expect(reportBodies().at(-1)).toContain('script-src');
  });
});
