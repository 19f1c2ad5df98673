import { expect, test, waitForHydration } from './fixtures.ts';

test.describe('accessible navigation', () => {
  test('after a client navigation focus moves to the main content and the new title is announced', async ({ page, site }) => {
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await page.locator('main a[href^="/news/"]').first().click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news-article');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
    const title = await page.title();
    expect(title).toContain('|');
    const announcer = page.locator('#route-announcer');
    await expect(announcer).toHaveText(title);
    await expect(announcer).toHaveAttribute('aria-live', 'assertive');
  });

  test('a skip link is the first thing keyboard users reach, and it leads to the main content', async ({ page, site }) => {
    await page.goto(site.url + '/events');
    await waitForHydration(page);
    await page.keyboard.press('Tab');
    const skip = page.locator(':focus');
    await expect(skip).toHaveAttribute('href', '#main');
    await expect(skip).toBeVisible();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('main');
  });

  test('with reduced motion, jumping to a section on the same page is instant', async ({ page, site }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(site.url + '/about/about-large');
    await waitForHydration(page);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
    await page.locator('a.toc__link[href="#c-visiting"]').click();
    // No animation: the anchor is in place on the next frame.
    const top = await page.evaluate(
      () => new Promise<number>((r) => requestAnimationFrame(() => r(document.getElementById('c-visiting')!.getBoundingClientRect().top))),
    );
    const margin = await page.evaluate(() => parseFloat(getComputedStyle(document.getElementById('c-visiting')!).scrollMarginTop) || 0);
    expect(Math.abs(top - margin)).toBeLessThanOrEqual(2);
  });
});
