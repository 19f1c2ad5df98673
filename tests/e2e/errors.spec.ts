import { addLink, expect, recordDocuments, test, waitForHydration } from './fixtures.ts';

test.describe('error screen', () => {
  test("an unmatched path is a non-fatal 404 'Page not found: {path}'", async ({ page, site }) => {
    await page.goto(site.url + '/about');
    await waitForHydration(page);
    await (await addLink(page, '/about/no-such-page')).click();
    const screen = page.locator('.error-screen');
    await expect(screen).toHaveAttribute('data-error-message', 'Page not found: /about/no-such-page');
    await expect(screen).toHaveAttribute('data-fatal', 'false');
    await expect(screen.locator('.error-screen__digit')).toHaveText(['4', '0', '4']);
    await expect(screen).toContainText('The page could not be found.');
  });

  for (const path of ['/events/no-such-category', '/news/Not_A_Valid_Slug!']) {
    test(`a route whose params fail validation is a fatal 404 'Page Not Found: {path}' (${path})`, async ({ page, site }) => {
      await page.goto(site.url + '/news');
      await waitForHydration(page);
      const documents = recordDocuments(page);
      const requested: string[] = [];
      page.on('request', (r) => r.url().includes('_payload.json') && requested.push(r.url()));
      await (await addLink(page, path)).click();
      const screen = page.locator('.error-screen');
      await expect(screen).toHaveAttribute('data-error-message', `Page Not Found: ${decodeURI(new URL(path, site.url).pathname)}`);
      await expect(screen).toHaveAttribute('data-fatal', 'true');
      await expect(screen).toContainText('The page could not be found.');
      expect(documents).toEqual([]);
      // Validation runs before anything loads.
      expect(requested.filter((u) => u.includes('no-such') || u.includes('Not_A'))).toEqual([]);
    });
  }

  test('the error screen shows the status digit by digit and the error message for other errors', async ({ page, site }) => {
    await page.route(/\/_assets\/courses-[^/]+\.js$/, (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: 'export default function Courses() { throw new Error("The course list is broken."); }',
      }),
    );
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await (await addLink(page, '/courses')).click();
    const screen = page.locator('.error-screen');
    await expect(screen.locator('.error-screen__digit')).toHaveText(['5', '0', '0']);
    await expect(screen.locator('.error-screen__message')).toHaveText('The course list is broken.');
    await expect(screen.getByRole('link', { name: 'Please go back to homepage.' })).toHaveAttribute('href', '/');
  });

  test('the next successful navigation clears the error screen', async ({ page, site }) => {
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await (await addLink(page, '/nowhere')).click();
    await expect(page.locator('.error-screen')).toBeVisible();
    await page.goBack();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news');
    await expect(page.locator('.error-screen')).toHaveCount(0);
  });

  test.describe('for search-engine bots', () => {
    test.use({ userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' });

    test('a page that fails to render keeps its prerendered content, and the error is only logged', async ({ page, site }) => {
      const logged: string[] = [];
      page.on('console', (m) => m.type() === 'error' && logged.push(m.text()));
      await page.route(/\/_assets\/courses-[^/]+\.js$/, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: 'export default function Courses() { throw new Error("boom"); }' }),
      );
      await page.goto(site.url + '/courses');
      await waitForHydration(page);
      await page.waitForTimeout(300);
      await expect(page.locator('.error-screen')).toHaveCount(0);
      await expect(page.locator('main h1')).toHaveText('Courses');
      expect(logged.some((l) => l.includes('Not rendering error page for bot with user agent'))).toBe(true);
    });

    test('a link to an unknown path shows no error screen: the page stays', async ({ page, site }) => {
      await page.goto(site.url + '/news');
      await waitForHydration(page);
      const heading = await page.locator('main h1').textContent();
      await (await addLink(page, '/no-such-page')).click();
      await page.waitForTimeout(300);
      await expect(page.locator('.error-screen')).toHaveCount(0);
      await expect(page.locator('main h1')).toHaveText(heading!);
    });
  });
});
