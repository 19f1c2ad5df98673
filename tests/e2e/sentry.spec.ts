import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { startSentryIngest, type SentryIngest } from '../helpers/sentry-server.ts';
import { addLink, expect, test, waitForHydration } from './fixtures.ts';
import { logIn, startLiveSite, tokenCookie, type LiveSite } from './auth-fixtures.ts';

let ingest: SentryIngest;
let site: LiveSite;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ingest = await startSentryIngest();
  site = await startLiveSite({ env: { SENTRY_DSN: ingest.dsn } });
});

test.afterAll(async () => {
  await site?.close();
  await ingest?.close();
});

test.beforeEach(() => {
  ingest.envelopes.length = 0;
});

/** Makes the courses page throw while rendering, with the visitor's cookies in the message and a console line holding the token. */
async function breakCoursesPage(page: Page): Promise<void> {
  await page.route(/\/_assets\/courses-[^/]+\.js$/, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: `export default function Courses() {
        console.log('Authorization: Bearer ' + decodeURIComponent((document.cookie.match(/apollo:default\\.token=([^;]+)/) || [])[1] || ''));
        throw new Error('The course list broke for ' + document.cookie);
      }`,
    }),
  );
}

test.describe('error reporting with a DSN', () => {
  test('loading a page sends a session with the build id as release, and so does each client navigation', async ({ page }) => {
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await expect.poll(() => ingest.items('session').length, { timeout: 15_000 }).toBeGreaterThan(0);
    const session = ingest.items('session')[0]!;
    expect(session).toMatchObject({ init: true, status: 'ok', attrs: { release: site.buildId, environment: 'production' } });
    // The envelope went to the DSN's project with its key in the query string (no credentials, no preflight).
    expect(ingest.envelopes[0]?.request.url).toMatch(/^\/api\/1\/envelope\/\?.*sentry_key=publickey/);

    await (await addLink(page, '/about')).click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'about');
    await expect.poll(() => new Set(ingest.items('session').map((s) => s.sid)).size, { timeout: 15_000 }).toBe(2);
  });

  test('a page that throws sends an event with the release, and no token anywhere in the envelope', async ({ page }) => {
    await logIn(page, site);
    const token = (await tokenCookie(page))!.value;
    await breakCoursesPage(page);
    await waitForHydration(page);
    await (await addLink(page, '/courses')).click();
    await expect(page.locator('.error-screen__message')).toContainText('The course list broke for');

    await expect.poll(() => ingest.items('event').length, { timeout: 15_000 }).toBeGreaterThan(0);
    const event = ingest.items('event')[0] as {
      release?: string;
      exception?: { values?: { value?: string; mechanism?: { handled?: boolean } }[] };
      breadcrumbs?: { message?: string }[];
    };
    expect(event.release).toBe(site.buildId);
    expect(event.exception?.values?.[0]?.value).toContain('The course list broke for');
    expect(event.exception?.values?.[0]?.mechanism?.handled).toBe(false);
    // The console line was recorded, without its secret.
    expect(event.breadcrumbs?.some((b) => b.message?.startsWith('Authorization: Bearer [Filtered]'))).toBe(true);
    for (const envelope of ingest.envelopes) {
      expect(envelope.raw).not.toContain(token);
      expect(envelope.raw).not.toContain(encodeURIComponent(token));
      expect(envelope.request.headers.authorization).toBeUndefined();
    }
  });

  test.describe('for search-engine bots', () => {
    test.use({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });

    test('an error swallowed for a bot is still reported', async ({ page }) => {
      await breakCoursesPage(page);
      await page.goto(site.url + '/courses');
      await waitForHydration(page);
      await expect(page.locator('main h1')).toHaveText('Courses');
      await expect(page.locator('.error-screen')).toHaveCount(0);
      await expect.poll(() => ingest.items('event').length, { timeout: 15_000 }).toBeGreaterThan(0);
      expect(JSON.stringify(ingest.items('event')[0])).toContain('The course list broke for');
    });
  });

  test('the page renders and hydrates while the Sentry SDK is still on its way', async ({ page }) => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let requested = false;
    await page.route(/\/_assets\/sentry-[^/]+\.js$/, async (route) => {
      requested = true;
      await held;
      await route.fallback();
    });
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await expect.poll(() => requested).toBe(true);
    // Nothing from this page yet. The page of the test before (a bot's) may still send its session as
    // it closes, so envelopes are told apart by the browser that sent them.
    const userAgent = await page.evaluate(() => navigator.userAgent);
    expect(ingest.envelopes.filter((e) => e.request.headers['user-agent'] === userAgent)).toEqual([]);
    release();
    const sessionsFromThisPage = (): number =>
      ingest.envelopes.filter((e) => e.request.headers['user-agent'] === userAgent && e.items.some((i) => i.header.type === 'session'))
        .length;
    await expect.poll(sessionsFromThisPage, { timeout: 15_000 }).toBeGreaterThan(0);
  });

  test('first-load JavaScript does not include Sentry: the DSN is data, and the SDK is only imported dynamically', async () => {
    const read = (file: string): Promise<string> => readFile(join(site.dir, file), 'utf8');
    const html = await read('news/index.html');
    const firstLoad = [...html.matchAll(/(?:src|href)="\/(_assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    // Everything the browser runs before the first render: these files and whatever they import statically.
    const seen = new Set<string>();
    const queue = [...firstLoad];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const m of (await read(file)).matchAll(
        /(?:^|[;}\s])(?:import|export)[^"'()]*?from\s*["']\.\/([^"']+\.js)["']|(?:^|[;}\s])import\s*["']\.\/([^"']+\.js)["']/g,
      ))
        queue.push(`_assets/${m[1] ?? m[2]}`);
    }
    expect(seen.size).toBeGreaterThan(2);
    expect([...seen].filter((file) => /\/(sentry|live-data)-/.test(file))).toEqual([]);
    // The SDK is reachable only through a dynamic import.
    const code = (await Promise.all([...seen].map(read))).join('\n');
    expect(code).toMatch(/import\(["']\.\/sentry-[a-z0-9]+\.js["']\)/);
    expect(html).toContain(`"sentryDsn":"${ingest.dsn}"`);
  });
});

test.describe('error reporting without a DSN', () => {
  test('never loads the Sentry SDK', async ({ page, site: plain }) => {
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await breakCoursesPage(page);
    await page.goto(plain.url + '/courses');
    await waitForHydration(page);
    await page.waitForTimeout(1500);
    expect(scripts.some((s) => s.includes('sentry'))).toBe(false);
  });
});
