import type { Page } from '@playwright/test';
import { emulateConnection, expect, test, waitForHydration } from './fixtures.ts';

/** Holds every payload and chunk request for `delayMs` and records the most in flight at once. */
async function measureConcurrency(page: Page, delayMs: number): Promise<{ max: () => number; inFlight: () => number; paths: string[] }> {
  let inFlight = 0;
  let max = 0;
  const paths: string[] = [];
  await page.route(/_payload\.json|\/_assets\/.*\.js/, async (route) => {
    inFlight++;
    max = Math.max(max, inFlight);
    paths.push(new URL(route.request().url()).pathname);
    await new Promise((r) => setTimeout(r, delayMs));
    try {
      await route.fallback();
    } finally {
      inFlight--;
    }
  });
  return { max: () => max, inFlight: () => inFlight, paths };
}

test.describe('preloading', () => {
  test('visible links are prefetched, chunk and payload, never more than 5 loads at once', async ({ page, site }) => {
    await page.setViewportSize({ width: 1280, height: 6000 });
    await page.goto(site.url + '/publications');
    await waitForHydration(page);
    // Each load is held for a second, so the queue fills however slowly the machine runs.
    const probe = await measureConcurrency(page, 1000);
    const links = await page.locator('main a[href^="/publication/"]').count();
    expect(links).toBeGreaterThan(10);
    await expect
      .poll(() => probe.paths.filter((p) => p.endsWith('_payload.json')).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(links - 2);
    await expect.poll(() => probe.inFlight(), { timeout: 15_000 }).toBe(0);
    expect(probe.max()).toBeLessThanOrEqual(5);
    // The queue was really full: the limit, not a lack of work, kept it at 5.
    expect(probe.max()).toBe(5);
    expect(probe.paths.some((p) => /\/_assets\/publication-[^/]+\.js$/.test(p))).toBe(true);
    // Once per path.
    const payloads = probe.paths.filter((p) => p.endsWith('_payload.json'));
    expect(new Set(payloads).size).toBe(payloads.length);
  });

  test('a link below the fold is prefetched on hover and on keyboard focus, once', async ({ page, site }) => {
    await page.setViewportSize({ width: 1000, height: 500 });
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const requested: string[] = [];
    page.on('request', (r) => r.url().includes('_payload.json') && requested.push(new URL(r.url()).pathname));
    const below = page.locator('main a[href^="/news/"]').last();
    const href = (await below.getAttribute('href'))!;
    const other = page.locator('main a[href^="/news/"]').nth(-3);
    const otherHref = (await other.getAttribute('href'))!;
    // Prefetching is running (the runtime says so) and has not fetched the link below the fold.
    await expect(page.locator('html')).toHaveAttribute('data-prefetch', 'on');
    expect(requested).not.toContain(`${href}/_payload.json`);

    await below.hover();
    await expect.poll(() => requested.filter((p) => p === `${href}/_payload.json`).length).toBe(1);
    await below.hover({ position: { x: 2, y: 2 } });
    await page.mouse.move(0, 0);
    await below.hover();
    // A later intent is served: everything before it was handled, and the first link was not asked for again.
    await other.focus();
    await expect.poll(() => requested).toContain(`${otherHref}/_payload.json`);
    expect(requested.filter((p) => p === `${href}/_payload.json`)).toHaveLength(1);
  });

  for (const connection of [{ saveData: true }, { effectiveType: '2g' }]) {
    test(`nothing is prefetched on ${JSON.stringify(connection)}`, async ({ page, site }) => {
      await emulateConnection(page, connection);
      await page.goto(site.url + '/news');
      await waitForHydration(page);
      const requested: string[] = [];
      page.on('request', (r) => r.url().includes('_payload.json') && requested.push(r.url()));
      // The runtime decided: no prefetching on this connection. Then hovering asks for nothing.
      await expect(page.locator('html')).toHaveAttribute('data-prefetch', 'off');
      await page.locator('main a[href^="/news/"]').first().hover();
      await page.locator('main a[href^="/news/"]').nth(1).focus();
      expect(requested).toEqual([]);
    });
  }

  test('a prefetched page is shown on click without another request', async ({ page, site }) => {
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const link = page.locator('main a[href^="/news/"]').first();
    const href = (await link.getAttribute('href'))!;
    await link.hover();
    await page.waitForResponse((r) => r.url().includes(`${href}/_payload.json`));
    const after: string[] = [];
    page.on('request', (r) => after.push(r.url()));
    await link.click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news-article');
    expect(after.filter((u) => u.includes(href))).toEqual([]);
  });
});

test.describe('on-demand route chunks', () => {
  test("a page loads only its own route chunk; another route's chunk loads when first needed", async ({ page, site }) => {
    await emulateConnection(page, { saveData: true });
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname));
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    expect(scripts.some((s) => /\/news-index-[^/]+\.js$/.test(s))).toBe(true);
    expect(scripts.some((s) => /\/news-article-[^/]+\.js$/.test(s))).toBe(false);
    // The current page's chunk is preloaded by the HTML itself, so hydration never waits on a waterfall.
    const preloads = await page
      .locator('link[rel="modulepreload"]')
      .evaluateAll((ls) => ls.map((l) => new URL((l as HTMLLinkElement).href).pathname));
    expect(preloads.some((s) => /\/news-index-[^/]+\.js$/.test(s))).toBe(true);

    await page.locator('main a[href^="/news/"]').first().click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news-article');
    expect(scripts.some((s) => /\/news-article-[^/]+\.js$/.test(s))).toBe(true);
  });
});
