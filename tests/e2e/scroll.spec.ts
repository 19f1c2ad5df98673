import type { Locator, Page } from '@playwright/test';
import { addLink, emulateConnection, expect, test, waitForHydration } from './fixtures.ts';

/** The anchor's distance from the viewport top equals its scroll-margin-top when scrolled to. */
async function anchorOffset(page: Page, id: string): Promise<{ top: number; margin: number }> {
  return page.evaluate((i) => {
    const el = document.getElementById(i)!;
    return { top: el.getBoundingClientRect().top, margin: parseFloat(getComputedStyle(el).scrollMarginTop) || 0 };
  }, id);
}

test.describe('scrolling', () => {
  test.use({ viewport: { width: 1000, height: 600 } });
  // Prefetching is off (Save-Data) so only the navigations under test make requests.
  test.beforeEach(({ page }) => emulateConnection(page, { saveData: true }));

  const pin = (link: Locator, left: number): Promise<unknown> =>
    link.evaluate(
      (a: HTMLElement, l: number) =>
        Object.assign(a.style, { position: 'fixed', top: '0', left: `${l}px`, width: '200px', overflow: 'hidden', zIndex: '100' }),
      left,
    );

  test('a new path scrolls to the top', async ({ page, site }) => {
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo(0, 700));
    const link = page.locator('main .card__link').last();
    await link.click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news-article');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('a URL with a hash scrolls to its anchor on first load, honouring scroll-margin-top', async ({ page, site }) => {
    await page.goto(site.url + '/about/about-large#c-organisation');
    await waitForHydration(page);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    const { top, margin } = await anchorOffset(page, 'c-organisation');
    expect(margin).toBeGreaterThan(0);
    expect(Math.abs(top - margin)).toBeLessThanOrEqual(2);
  });

  test('a navigation to another page with a hash scrolls to the anchor', async ({ page, site }) => {
    await page.goto(site.url + '/about');
    await waitForHydration(page);
    // A link from before content ids had their prefix: `#visiting` still reaches `#c-visiting`.
    await (await addLink(page, '/about/about-large#visiting')).click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'about-large');
    await expect
      .poll(async () => {
        const { top, margin } = await anchorOffset(page, 'c-visiting');
        return Math.abs(top - margin) <= 2;
      })
      .toBe(true);
  });

  test('Back and Forward restore the saved positions', async ({ page, site }) => {
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo(0, 650));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(650);
    const article = (await page.locator('main .card__link').last().getAttribute('href'))!;
    const link = await addLink(page, article);
    await pin(link, 0);
    // Adding the link may shift the content, and scroll anchoring with it: remember where we really are.
    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThanOrEqual(650);
    await link.click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news-article');
    await page.evaluate(() => window.scrollTo(0, 120));
    await page.waitForTimeout(100);
    await page.goBack();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(before);
    await page.goForward();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news-article');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(120);
  });

  test('a query-only change keeps the position and fetches nothing', async ({ page, site }) => {
    await page.goto(site.url + '/courses');
    await waitForHydration(page);
    await page.evaluate(() => window.scrollTo(0, 400));
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await page.evaluate(() => {
      const a = document.createElement('a');
      a.href = '/courses?level=master';
      a.id = 'query-link';
      a.textContent = 'Master courses';
      a.style.position = 'fixed';
      a.style.top = '0';
      document.querySelector('main')?.append(a);
    });
    await page.locator('#query-link').click();
    await expect(page).toHaveURL(site.url + '/courses?level=master');
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => window.scrollY)).toBe(400);
    expect(requests.filter((u) => u.includes('_payload.json') || u.endsWith('/courses?level=master'))).toEqual([]);
  });

  test('a navigation superseded by a newer one neither commits nor scrolls', async ({ page, site }) => {
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    const slow = (await page.locator('main .card__link').last().getAttribute('href'))!;
    await page.route(`**${slow}/_payload.json*`, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.fallback();
    });
    await page.evaluate(() => window.scrollTo(0, 500));
    await pin(await addLink(page, slow, 'slow-link'), 0);
    await pin(await addLink(page, '/news?page=1', 'newer-link'), 300);
    const before = await page.evaluate(() => window.scrollY);
    await page.locator('#slow-link').click();
    await page.locator('#newer-link').click();
    await expect(page).toHaveURL(site.url + '/news?page=1');
    await page.waitForTimeout(2000);
    await expect(page).toHaveURL(site.url + '/news?page=1');
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news');
    expect(await page.evaluate(() => window.scrollY)).toBe(before);
  });
});
