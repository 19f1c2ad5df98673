import type { LatestBuild } from '../../runtime/shared/contract.ts';
import {
  addLink,
  emulateConnection,
  expect,
  latestBuildId,
  publishNextBuild,
  recordDocuments,
  serveCopy,
  shortenBuildChecks,
  test,
  waitForHydration,
} from './fixtures.ts';

// The file's longest tests run beside each other on both workers: each sets up its own page and servers.
test.describe.configure({ mode: 'parallel' });

test.describe('route manifest', () => {
  test('builds/meta/{buildId}.json is fetched about 1 s after hydration', async ({ page, site }) => {
    let fetchedAt = 0;
    page.on('request', (r) => {
      if (r.url().includes(`/builds/meta/${site.meta.id}.json`)) fetchedAt = Date.now();
    });
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const hydratedAt = Date.now();
    await expect.poll(() => fetchedAt, { timeout: 20_000 }).toBeGreaterThan(0);
    expect(fetchedAt - hydratedAt).toBeGreaterThanOrEqual(700);
    // Generous for a loaded machine; a fetch that never came, or came much later, still fails.
    expect(fetchedAt - hydratedAt).toBeLessThan(15_000);
  });

  test('it is not prefetched on a slow-2g connection', async ({ page, site }) => {
    await emulateConnection(page, { effectiveType: 'slow-2g' });
    const fetched: string[] = [];
    page.on('request', (r) => r.url().includes('/builds/meta/') && fetched.push(r.url()));
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    // The runtime reached its decision (it would have scheduled the fetch here) and skipped it.
    await expect(page.locator('html')).toHaveAttribute('data-manifest', 'skipped');
    await page.waitForTimeout(1500);
    expect(fetched).toEqual([]);
  });

  test('a redirect rule to a site path redirects client-side', async ({ page, site }) => {
    await page.goto(site.url + '/about');
    await waitForHydration(page);
    const documents = recordDocuments(page);
    await (await addLink(page, '/about/team')).click();
    await expect(page).toHaveURL(site.url + '/about/people');
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'about-people');
    expect(documents).toEqual([]);
  });

  test('a redirect rule to an external URL is a full browser redirect', async ({ page, site }) => {
    await page.route('https://library.institute.example/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<title>Library</title><h1>Library catalogue</h1>' }),
    );
    await page.goto(site.url + '/about');
    await waitForHydration(page);
    await (await addLink(page, '/library')).click();
    await expect(page).toHaveURL('https://library.institute.example/');
    await expect(page.locator('h1')).toHaveText('Library catalogue');
  });

  test('a first visit to a redirected path is redirected by the static page', async ({ page, site }) => {
    await page.goto(site.url + '/contact');
    await expect(page).toHaveURL(site.url + '/about/contact');
  });

  test('a missing or broken manifest means no rules, never the error screen', async ({ page, site }) => {
    await page.route('**/builds/meta/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<html>not json</html>' }),
    );
    const brokenManifest = page.waitForResponse((r) => r.url().includes('/builds/meta/'));
    await page.goto(site.url + '/about');
    await waitForHydration(page);
    // The fetch scheduled after hydration got the broken manifest before the click.
    await brokenManifest;
    await (await addLink(page, '/news')).click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news');
    await expect(page.locator('.error-screen')).toHaveCount(0);
  });
});

test.describe('stale builds', () => {
  test('after a newer build is published, polling latest.json makes the next navigation exactly one full load, then stops', async ({
    page,
  }) => {
    const served = await serveCopy();
    try {
      await shortenBuildChecks(page, 700);
      await page.goto(served.url + '/news');
      await waitForHydration(page);
      const firstId = await latestBuildId(served.dir);
      const polls: string[] = [];
      page.on('request', (r) => r.url().includes('/builds/latest.json') && polls.push(new URL(r.url()).search));
      await expect.poll(() => polls.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect(polls[0]).toMatch(/^\?\d{13}$/);

      const link = page.locator('main a[href^="/news/"]').first();
      const href = (await link.getAttribute('href'))!;
      // The poll that sees the new build: counted from its answer, not from the requests sent since the
      // publish began, one of which may already have been on its way and seen it (the test failed so).
      const detected = page.waitForResponse(
        async (r) => r.url().includes('/builds/latest.json') && (JSON.parse(await r.text()) as LatestBuild).id !== firstId,
        { timeout: 5000 },
      );
      // Everything of the new build except the target's payload: only latest.json can tell this tab it is stale.
      const nextId = await publishNextBuild(served.dir, { files: (file) => file !== `${href}/_payload.json` });
      expect(nextId).not.toBe(firstId);
      await detected;
      const seen = polls.length;
      // More than two check intervals: a tab still polling would ask twice.
      await page.waitForTimeout(1600);
      const afterDetection = polls.length;

      const documents = recordDocuments(page);
      await link.click();
      await expect(page).toHaveURL(served.url + href);
      await waitForHydration(page);
      expect(documents).toEqual([href]);
      const boot = JSON.parse((await page.locator('#__BOOT__').textContent())!) as { buildId: string };
      expect(boot.buildId).toBe(nextId);
      // The old page stopped polling once it saw the new build.
      expect(afterDetection - seen).toBe(0);
      // On the new build, navigation is client-side again.
      await (await addLink(page, '/news')).click();
      await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news');
      expect(documents).toEqual([href]);
    } finally {
      await served.close();
    }
  });

  test('a payload from another build makes that navigation one full load', async ({ page }) => {
    const served = await serveCopy();
    try {
      await emulateConnection(page, { saveData: true });
      await page.goto(served.url + '/news');
      await waitForHydration(page);
      const href = (await page.locator('main a[href^="/news/"]').first().getAttribute('href'))!;
      // Only that page's payload is replaced, as a half-finished deploy would leave it.
      await publishNextBuild(served.dir, { files: (file) => file === `${href}/_payload.json`, latest: false });
      const documents = recordDocuments(page);
      await page.locator(`main a[href="${href}"]`).first().click();
      await expect(page).toHaveURL(served.url + href);
      await waitForHydration(page);
      expect(documents).toEqual([href]);
    } finally {
      await served.close();
    }
  });

  test('a payload that 404s makes that navigation one full load', async ({ page, site }) => {
    await emulateConnection(page, { saveData: true });
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const href = (await page.locator('main a[href^="/news/"]').first().getAttribute('href'))!;
    await page.route(`**${href}/_payload.json*`, (route) => route.fulfill({ status: 404, body: 'gone' }));
    const documents = recordDocuments(page);
    await page.locator(`main a[href="${href}"]`).first().click();
    await expect(page).toHaveURL(site.url + href);
    await waitForHydration(page);
    expect(documents).toEqual([href]);
  });
});

test.describe('chunk load failures', () => {
  test('a route chunk that keeps failing gives one reload at the target, not a loop', async ({ page, site }) => {
    await emulateConnection(page, { saveData: true });
    await page.route(/\/_assets\/news-article-[^/]+\.js$/, (route) => route.abort('failed'));
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const documents = recordDocuments(page);
    const href = (await page.locator('main a[href^="/news/"]').first().getAttribute('href'))!;
    await page.locator(`main a[href="${href}"]`).first().click();
    await expect(page).toHaveURL(site.url + href);
    await page.waitForTimeout(3000);
    expect(documents).toEqual([href]);
    // The prerendered page stays readable.
    await expect(page.locator('main h1')).not.toBeEmpty();
  });

  test('a route chunk that hangs 15 s and then fails gives one reload at the target, not a slow loop', async ({ page, site }) => {
    test.setTimeout(150_000);
    await emulateConnection(page, { saveData: true });
    // The hang is 15 s of the page's clock, the one the guard reads (Date.now): the page's clock runs with
    // real time, and each request for the chunk moves it 15 s on (running the page's timers due by then)
    // before the request fails. The test no longer waits 2 × 15 s of real time for it.
    await page.clock.install();
    const failures: number[] = [];
    await page.route(/\/_assets\/news-article-[^/]+\.js$/, async (route) => {
      await page.clock.fastForward(15_000);
      failures.push(await page.evaluate(() => Date.now()));
      await route.abort('failed').catch(() => undefined);
    });
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const documents = recordDocuments(page);
    const href = (await page.locator('main a[href^="/news/"]').first().getAttribute('href'))!;
    await page.locator(`main a[href="${href}"]`).first().click();
    // The first failure (15 s in) makes the one automatic load of the target.
    await expect.poll(() => documents, { timeout: 40_000 }).toEqual([href]);
    await expect.poll(() => failures.length).toBeGreaterThan(0);
    const firstFailure = failures[0]!;
    // On the reloaded page the chunk hangs and fails again, more than 10 s after the reload.
    await expect.poll(() => failures.filter((t) => t > firstFailure).length, { timeout: 60_000 }).toBeGreaterThan(0);
    // What stops the loop is the guard's own record, not the clock: the automatic load it made is still
    // pending (never confirmed by a successful load), and it was made more than the 10 s window before
    // this failure, so a guard that only counted time would have reloaded again.
    const failedAt = failures.at(-1)!;
    const mark = await page.evaluate((path) => sessionStorage.getItem(`site:reload:${path}`), new URL(href, site.url).pathname);
    expect(mark).toMatch(/^\d+$/);
    expect(failedAt - Number(mark)).toBeGreaterThan(10_000);
    await page.waitForTimeout(3000);
    expect(documents).toEqual([href]);
    // The prerendered page stays readable.
    await expect(page.locator('main h1')).not.toBeEmpty();
  });

  test('without sessionStorage there is no automatic reload at all', async ({ page, site }) => {
    await emulateConnection(page, { saveData: true });
    await page.addInitScript(() => {
      Object.defineProperty(window, 'sessionStorage', {
        configurable: true,
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
    let chunkFailures = 0;
    await page.route(/\/_assets\/news-article-[^/]+\.js$/, async (route) => {
      chunkFailures++;
      await route.abort('failed');
    });
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const documents = recordDocuments(page);
    await page.locator('main a[href^="/news/"]').first().click();
    // The navigation was attempted: the target's chunk was asked for and failed, which is what would reload.
    await expect.poll(() => chunkFailures).toBeGreaterThan(0);
    await page.waitForTimeout(2000);
    expect(documents).toEqual([]);
    // Instead of a reload, the error screen.
    await expect(page.locator('.error-screen')).toBeVisible();
  });
});
