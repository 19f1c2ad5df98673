import { addLink, expect, recordDocuments, test, waitForHydration } from './fixtures.ts';
import { DRAFT_TITLE, logIn, startLiveSite, tokenCookie, type LiveSite } from './auth-fixtures.ts';

let site: LiveSite;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  site = await startLiveSite();
});

test.afterAll(async () => {
  await site?.close();
});

test.beforeEach(() => {
  site.api.length = 0;
});

test.describe('token auth', () => {
  test('logging in stores the token in apollo:default.token for 7 days, Secure, SameSite=Lax, Path=/', async ({ page }) => {
    await logIn(page, site);
    const cookie = await tokenCookie(page);
    expect(cookie).toMatchObject({ domain: '127.0.0.1', path: '/', secure: true, sameSite: 'Lax', httpOnly: false });
    expect(cookie?.value).toMatch(/^[0-9a-f]{48}$/);
    // Max-Age=604800: the expiry is a week from now.
    expect(Math.abs((cookie?.expires ?? 0) - (Date.now() / 1000 + 604_800))).toBeLessThan(120);
    // The login went to the API without a token; the token came back in its answer.
    expect(site.api.find((r) => r.operationName === 'Login')).toEqual({ operationName: 'Login', authorization: null });
  });

  test('API requests then carry the Bearer token, and requests to any other host do not', async ({ page }) => {
    const sent: { origin: string; authorization: string | undefined }[] = [];
    // A request still under way when the test ends and its page closes has no headers to read: that
    // rejection, unhandled, would fail the next test in the worker.
    page.on(
      'request',
      (request) =>
        void request
          .allHeaders()
          .then((headers) => sent.push({ origin: new URL(request.url()).origin, authorization: headers.authorization }))
          .catch(() => undefined),
    );
    // Another host the page talks to (an image CDN), stood in for by the test.
    await page.route('https://images.example.org/**', (route) =>
      route.fulfill({ contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
    );
    await logIn(page, site);
    const token = (await tokenCookie(page))?.value;
    await (await addLink(page, '/news')).click();
    await expect(page.locator('main')).toContainText(DRAFT_TITLE);
    await page.evaluate(() => {
      const img = document.createElement('img');
      img.src = 'https://images.example.org/pixel.svg';
      document.body.append(img);
      return new Promise((resolve) => (img.onload = img.onerror = resolve));
    });
    await expect.poll(() => sent.some((s) => s.origin === 'https://images.example.org')).toBe(true);

    const apiOrigin = new URL(site.backend.url).origin;
    const toApi = sent.filter((s) => s.origin === apiOrigin && s.authorization !== undefined);
    expect(toApi.length).toBeGreaterThan(0);
    expect(new Set(toApi.map((s) => s.authorization))).toEqual(new Set([`Bearer ${token}`]));
    expect(sent.filter((s) => s.origin !== apiOrigin && s.authorization !== undefined)).toEqual([]);
    expect(sent.some((s) => s.origin === site.url)).toBe(true);
    // What the backend itself saw after the login: the news query, with the token.
    expect(site.api.filter((r) => r.operationName === 'NewsIndex')).toEqual([
      { operationName: 'NewsIndex', authorization: `Bearer ${token}` },
    ]);
  });

  test('logout clears the cookie, and a query issued afterwards goes to the network without the token', async ({ page }) => {
    // The build's /news data is unavailable, so the page's data comes live from the API (cache-first).
    await page.route('**/news/_payload.json*', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await logIn(page, site);
    const token = (await tokenCookie(page))?.value;
    await (await addLink(page, '/news')).click();
    await expect(page.locator('main')).toContainText(DRAFT_TITLE);
    site.api.length = 0;

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.locator('.preview-banner')).toHaveCount(0);
    expect(await tokenCookie(page)).toBeUndefined();
    // The draft came from the cache before logout; the reset cache sends the same query to the API again.
    await expect(page.locator('main')).not.toContainText(DRAFT_TITLE);
    expect(site.api).toEqual([
      { operationName: 'Logout', authorization: `Bearer ${token}` },
      { operationName: 'NewsIndex', authorization: null },
    ]);
  });

  test('logout without a cookie does nothing', async ({ page }) => {
    await logIn(page, site);
    await page.context().clearCookies();
    site.api.length = 0;
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForTimeout(300);
    expect(site.api).toEqual([]);
  });

  test('two identical queries at the same time make one request', async ({ page }) => {
    await logIn(page, site);
    // Slow the API down so that both queries are surely in flight together.
    await page.route(site.backend.url, async (route) => {
      if (route.request().postData()?.includes('query Viewer')) await new Promise((resolve) => setTimeout(resolve, 500));
      await route.fallback();
    });
    site.api.length = 0;
    // The login page and the preview banner both ask who is logged in.
    await page.goto(site.url + '/login');
    await expect(page.locator('.preview-banner')).toContainText('Preview mode is on for Preview Editor');
    await expect(page.locator('.login-page__viewer')).toHaveText('Preview Editor');
    expect(site.api.filter((r) => r.operationName === 'Viewer')).toHaveLength(1);
  });
});

test.describe('live data when a payload cannot be loaded', () => {
  test('the page data comes from the API before any full page load', async ({ page }) => {
    await page.route('**/news/_payload.json*', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto(site.url + '/');
    await waitForHydration(page);
    const documents = recordDocuments(page);
    await (await addLink(page, '/news')).click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news');
    await expect(page.locator('main h1')).toHaveText('News');
    await expect(page.locator('main')).not.toContainText(DRAFT_TITLE);
    expect(documents).toEqual([]);
    expect(site.api).toEqual([{ operationName: 'NewsIndex', authorization: null }]);
  });

  test('rich text and URL fields from the API are sanitised like the build sanitises them', async ({ page }) => {
    // The attacker's host is answered here, never reached: a sanitiser that let a URL through shows up as a request.
    const evil: string[] = [];
    await page.route(/^https?:\/\/evil\.example\//, (route) => {
      evil.push(route.request().url());
      return route.abort();
    });
    await page.route('**/news/**/_payload.json*', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.route(site.backend.url, async (route) => {
      if (!route.request().postData()?.includes('query NewsArticle')) return route.fallback();
      const response = await route.fetch();
      const json = (await response.json()) as { data: { newsItem: { body: string; image: unknown } } };
      json.data.newsItem.body = `<p id="kept">Kept <strong>text</strong> <a href="/news" onclick="window.__xss = 1">link</a></p><img src="/media/x.svg" onerror="window.__xss = 2"><script>window.__xss = 3</script><a href="javascript:window.__xss = 4">bad</a><iframe src="https://evil.example/"></iframe><h2 id="__BOOT__">Not the boot data</h2>`;
      json.data.newsItem.image = { url: '//evil.example/tracker.png', alt: 'Tracker', width: 10, height: 10 };
      await route.fulfill({ response, json });
    });
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const href = await page.locator('main a[href^="/news/"]').first().getAttribute('href');
    await (await addLink(page, href!)).click();
    // Ids from content get the content prefix (content-ids.ts), as in the build.
    await expect(page.locator('#c-kept')).toHaveText('Kept text link');
    const prose = page.locator('.prose');
    await expect(prose.locator('script, iframe, [onerror], [onclick], a[href^="javascript:"]')).toHaveCount(0);
    // Content ids never equal the page's own: `__BOOT__` would stand in for the page's boot data.
    await expect(prose.locator('h2', { hasText: 'Not the boot data' })).toHaveAttribute('id', 'c-boot');
    expect(await page.evaluate(() => document.querySelectorAll('[id="__BOOT__"]').length)).toBe(1);
    // An unsafe URL field becomes a link to nowhere, never a request to another host.
    await expect(page.locator('main img[alt="Tracker"]')).toHaveAttribute('src', '#');
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    expect(evil).toEqual([]);
  });
});
