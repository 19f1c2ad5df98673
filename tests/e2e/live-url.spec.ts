import { expect, test, waitForHydration } from './fixtures.ts';
import { DRAFT_TITLE, logIn, startLiveSite, type LiveSite } from './auth-fixtures.ts';

/**
 * Live data (editor preview) is cleaned in the browser by the same URL rule as the build's data: a
 * hostile URL the API sends never becomes a link or an image on the site's origin.
 */

let site: LiveSite;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  site = await startLiveSite();
});

test.afterAll(async () => {
  await site?.close();
});

const HOSTILE_BODY = [
  '<p><a href="/\\evil.example/steal">backslash host</a></p>',
  '<p><a href="\\\\evil.example/steal">double backslash host</a></p>',
  '<p><a href="/&#09;/evil.example/steal">tab host</a></p>',
  '<p><img src="data:image/svg+xml,%3Csvg%20xmlns=%22http://www.w3.org/2000/svg%22/%3E" alt="data image"></p>',
].join('');

/** Every `body` of every live answer gets the hostile HTML appended, every `url` field a backslash host. */
function poison(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(poison);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      key === 'body' && typeof v === 'string'
        ? v + HOSTILE_BODY
        : key === 'registrationUrl' && typeof v === 'string'
          ? '/\\evil.example/register'
          : poison(v),
    ]),
  );
}

test('hostile URLs in live data are neutralised on the page', async ({ page }) => {
  await logIn(page, site);
  let poisoned = 0;
  await page.route(`${site.backend.url}**`, async (route) => {
    if (route.request().method() !== 'POST') return route.continue();
    const response = await route.fetch();
    const json: unknown = await response.json();
    poisoned++;
    await route.fulfill({ response, json: poison(json) });
  });
  await page.goto(site.url + '/news');
  const href = await page.getByRole('link', { name: DRAFT_TITLE }).first().getAttribute('href');
  await page.goto(site.url + href!);
  await waitForHydration(page);
  await expect(page.locator('main h1')).toHaveText(DRAFT_TITLE);
  // The draft exists only in live data, so what is on the page went through the browser's cleaner.
  await expect(page.locator('main')).toContainText('double backslash host');
  expect(poisoned).toBeGreaterThan(0);
  for (const name of ['backslash host', 'double backslash host', 'tab host']) {
    await expect(page.locator('main a[href]', { hasText: name })).toHaveCount(0);
  }
  const image = page.locator('main img[alt="data image"]');
  await expect(image).toHaveCount(1);
  expect(await image.getAttribute('src')).toBeNull();
  const hrefs = await page
    .locator('a[href], img[src]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? el.getAttribute('src') ?? ''));
  expect(hrefs.filter((url) => /evil\.example|^data:/.test(url))).toEqual([]);
});
