import type { Page } from '@playwright/test';
import { addLink, expect, recordDocuments, test, waitForHydration } from './fixtures.ts';

/**
 * Redirects come only from the build's own route rules (its `builds/meta/{id}.json`): never from the
 * address bar, never from page data. An off-site target planted anywhere else is never visited.
 */

const EVIL = 'https://evil.example/';

/** Records every request to the attacker's host (answered locally: nothing leaves the machine). */
async function watchEvil(page: Page): Promise<string[]> {
  const hits: string[] = [];
  await page.route('https://evil.example/**', (route) => {
    hits.push(route.request().url());
    return route.fulfill({ contentType: 'text/html', body: '<h1>evil</h1>' });
  });
  return hits;
}

test.describe('redirects', () => {
  test('redirect-like query parameters and fragments never send the visitor anywhere', async ({ page, site }) => {
    const hits = await watchEvil(page);
    const query = `?redirect=${encodeURIComponent(EVIL)}&next=//evil.example/&returnTo=${encodeURIComponent(EVIL)}&url=javascript:alert(1)`;
    for (const path of ['/', '/news', '/login', '/about/team', '/no-such-page']) {
      await page.goto(`${site.url}${path}${query}#redirect=${EVIL}`);
      await waitForHydration(page);
    }
    // Client-side too, once the manifest has loaded (about a second after hydration).
    await page.waitForTimeout(1500);
    await (await addLink(page, `/news${query}`, 'to-news')).click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news');
    await page.waitForTimeout(500);
    expect(new URL(page.url()).origin).toBe(site.url);
    expect(hits).toEqual([]);
  });

  test("rules come only from this build's manifest, not from page data", async ({ page, site }) => {
    const hits = await watchEvil(page);
    const manifests: string[] = [];
    page.on('request', (r) => r.url().includes('/builds/meta/') && manifests.push(new URL(r.url()).pathname));
    // Page data that looks like route rules, in the payload the next navigation fetches.
    await page.route('**/about/_payload.json*', async (route) => {
      const response = await route.fetch();
      const payload = (await response.json()) as Record<string, unknown> & { data: Record<string, unknown> };
      Object.assign(payload, { redirect: EVIL, matcher: { '/about': { redirect: EVIL } } });
      Object.assign(payload.data, { redirect: EVIL, routeRules: { '/about': { redirect: EVIL } } });
      await route.fulfill({ response, json: payload });
    });
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await page.waitForTimeout(1500);
    const documents = recordDocuments(page);
    await (await addLink(page, '/about', 'to-about')).click();
    await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'about');
    await expect(page).toHaveURL(site.url + '/about');
    // The build's own rule still applies: /about/team → /about/people, client-side.
    await (await addLink(page, '/about/team', 'to-team')).click();
    await expect(page).toHaveURL(site.url + '/about/people');
    expect(documents).toEqual([]);
    expect(hits).toEqual([]);
    expect(new Set(manifests)).toEqual(new Set([`/_assets/builds/meta/${site.meta.id}.json`]));
  });
});
