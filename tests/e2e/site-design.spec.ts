import { findRoute, type RouteDefinition } from '../../runtime/routes.ts';
import { routes } from '../../site/routes.ts';
import { expect, test, waitForHydration, type BuiltSite } from './fixtures.ts';

/** The design holds from 320 px up, in dark mode and in print, and images keep their space while loading. */

const table: readonly RouteDefinition[] = routes;

function samplePaths(site: BuiltSite): string[] {
  const samples = new Map<string, string>();
  for (const path of [...site.meta.prerendered].sort()) {
    const id = findRoute(table, path)?.route.id;
    if (id && !samples.has(id)) samples.set(id, path);
  }
  return [...samples.values()];
}

test.describe('at 320 px', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('no route type scrolls sideways', async ({ page, site }) => {
    test.setTimeout(120_000);
    const overflowing: string[] = [];
    for (const path of samplePaths(site)) {
      await page.goto(site.url + path);
      await waitForHydration(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 320) overflowing.push(`${path}: ${width}px`);
    }
    expect(overflowing).toEqual([]);
  });
});

test('dark mode swaps the palette for light text on a dark page', async ({ page, site }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(site.url + '/news');
  const [background, text] = await page.evaluate(() => {
    const style = getComputedStyle(document.body);
    return [style.backgroundColor, style.color];
  });
  const luminance = (rgb: string): number => {
    const [r = 0, g = 0, b = 0] = (rgb.match(/\d+/g) ?? []).map(Number);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  expect(luminance(background)).toBeLessThan(60);
  expect(luminance(text)).toBeGreaterThan(180);
});

test('printing an article leaves out navigation and actions, black on white', async ({ page, site }) => {
  const path = site.meta.prerendered.find((p) => /^\/events\/(?!page\/)[^/]+\/[^/]+$/.test(p))!;
  await page.goto(site.url + path);
  await waitForHydration(page);
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.main-nav')).toBeHidden();
  await expect(page.locator('.breadcrumbs')).toBeHidden();
  await expect(page.locator('.fact-sheet__actions')).toBeHidden();
  await expect(page.locator('.article__body')).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
});

test('images hold their space while loading, so the news list does not shift', async ({ page, site }) => {
  // Images arrive late: a layout that depends on them would jump when they do.
  await page.route('**/media/**', async (route) => {
    await new Promise((r) => setTimeout(r, 400));
    await route.continue();
  });
  await page.addInitScript(() => {
    (window as unknown as { cls: number }).cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) (window as unknown as { cls: number }).cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(site.url + '/news');
  await waitForHydration(page);
  await page.waitForLoadState('networkidle');
  expect(
    await page
      .locator('main img')
      .first()
      .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
  ).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { cls: number }).cls)).toBeLessThan(0.01);
});
