import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { deleteContent, updateContent } from '../helpers/content-edits.ts';
import { startDev, type Dev } from '../helpers/dev.ts';

/** Starts `site dev` in a fresh temporary folder with empty content overrides, once its first build is served. */
async function startBuiltDev(flags: readonly string[] = []): Promise<{ dev: Dev; overrides: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'site-dev-'));
  const overrides = join(dir, 'overrides.json');
  await writeFile(overrides, '{}');
  const dev = await startDev(['--out', join(dir, 'out'), ...flags], { CONTENT_OVERRIDES_FILE: overrides });
  try {
    await dev.waitFor(/\[dev\] built [0-9a-f]+ in /);
    return { dev, overrides };
  } catch (error) {
    await dev.stop();
    throw error;
  }
}

test.describe('site dev', () => {
  test.setTimeout(240_000);

  test('rebuilds after a content change and reloads the open page, which then shows the change', async ({ page }) => {
    const { dev, overrides } = await startBuiltDev();
    // The pages carry their Content-Security-Policy in dev too; the live-reload client is a file of the dev server's, which it allows.
    const refused: string[] = [];
    page.on('console', (msg) => void (/Content Security Policy|Refused to/i.test(msg.text()) && refused.push(msg.text())));
    try {
      await page.goto(dev.url + '/');
      await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveCount(1);
      await expect(page.locator('h1')).toHaveText('Northlight Institute');
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      // A marker on the window: it survives client-side changes, but not a reload.
      await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));

      const reloaded = page.waitForEvent('load', { timeout: 120_000 });
      await writeFile(overrides, JSON.stringify({ home: { title: 'Changed while the page was open' } }));

      await dev.waitFor(/\[dev\] restarting the content backend/);
      // The page shows the change either rendered first (the restarted backend's feed says everything may have changed) or from the build.
      await dev.waitFor(/\[dev\] built [0-9a-f]+ in [\d.]+ m?s; reloading (?:1 open page|0 open pages \(1 already shows it\))/, 120_000);
      await reloaded;
      await expect(page.locator('h1')).toHaveText('Changed while the page was open');
      expect(await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).toBeUndefined();
      expect(refused).toEqual([]);
      // The bundle did not change, so the rebuild reused it.
      expect(dev.output()).toMatch(/\[dev\] building \(.*overrides\.json changed\)[\s\S]*\[bundle\] \d+ route chunks \(cached\)/);
    } finally {
      await dev.stop();
    }
  });

  test("leaves the site search's index out, and /search says search is not available; --search builds it", async ({ page }) => {
    const { dev } = await startBuiltDev();
    try {
      expect(dev.output()).toMatch(/\[dev\] the site search's index is left out/);
      expect((await fetch(`${dev.url}/_search/pagefind.js`)).status).toBe(404);
      await page.goto(`${dev.url}/search?q=institute`);
      await expect(page.getByText('Search is not available at the moment')).toBeVisible({ timeout: 30_000 });
    } finally {
      await dev.stop();
    }
    const { dev: searching } = await startBuiltDev(['--search']);
    try {
      expect(searching.output()).not.toMatch(/index is left out/);
      expect((await fetch(`${searching.url}/_search/pagefind.js`)).status).toBe(200);
    } finally {
      await searching.stop();
    }
  });

  test('keeps serving the last good build when a change breaks the content, and says so', async ({ page }) => {
    const { dev, overrides } = await startBuiltDev();
    try {
      await page.goto(dev.url + '/news');
      const warned = page.waitForEvent('console', { predicate: (m) => m.text().includes('[site dev] the build failed'), timeout: 120_000 });
      await writeFile(overrides, '{ this is not json');
      await dev.waitFor(/\[BackendFailed\] The embedded content backend exited with code 1 before it listened/, 120_000);
      await warned;
      const response = await page.reload();
      expect(response?.status()).toBe(200);
      await expect(page.locator('h1')).toHaveText('News');
    } finally {
      await dev.stop();
    }
  });

  test("shows an editor's edit through the backend's mutation in the open page, with no backend restart, and keeps the last good build when an edit breaks the content", async ({
    page,
  }) => {
    const { dev } = await startBuiltDev();
    try {
      const [, endpoint] = await dev.waitFor(/\[dev\] embedded content backend at (\S+)/);
      await dev.waitFor(/\[dev\] following the backend's change feed/);
      await dev.waitFor(/\[dev\] an edit in the backend shows in the open pages first/, 60_000);
      const login = await fetch(endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation { login(email: "editor@institute.example", password: "preview-editor") { token } }' }),
      });
      const token = ((await login.json()) as { data: { login: { token: string } } }).data.login.token;
      const listed = await fetch(endpoint!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ newsItems(first: 1) { nodes { id slug } } page(slug: "about") { id } }' }),
      });
      const { newsItems, page: about } = (
        (await listed.json()) as { data: { newsItems: { nodes: { id: string; slug: string }[] }; page: { id: string } } }
      ).data;
      const item = newsItems.nodes[0]!;
      await page.goto(`${dev.url}/news/${item.slug}`);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');

      const reloaded = page.waitForEvent('load', { timeout: 60_000 });
      const builds = dev.output().match(/\[dev\] built /g)!.length;
      await updateContent({ url: endpoint! }, token, 'NewsItem', item.id, { title: 'Edited in the backend while the page was open' });
      await reloaded;
      await expect(page.locator('main h1')).toHaveText('Edited in the backend while the page was open');
      // The open page was rendered and reloaded first, before the update in place of the folder had even started.
      expect(dev.output().match(/\[dev\] built /g)!.length).toBe(builds);
      expect(dev.output()).toMatch(
        new RegExp(
          `\\[dev\\] rendered /news/${item.slug} first in [\\d.]+ m?s; reloading 1 open page, then updating the rest\\n\\[dev\\] building \\(1 content change in the backend\\)`,
        ),
      );
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      await page.evaluate(() => ((window as unknown as { shownFirst: boolean }).shownFirst = true));
      // The update in place then wrote what the page already shows: it is not reloaded again.
      await dev.waitFor(/\[dev\] built [0-9a-f]+ in [\d.]+ m?s; reloading 0 open pages \(1 already shows it\)/, 60_000);
      expect(dev.output()).toMatch(
        /\[dev\] building \(1 content change in the backend\)[\s\S]*\[changes\] 1 change since the previous build \(NewsItem\)/,
      );
      expect(dev.output()).not.toMatch(/restarting the content backend/);
      expect(await page.evaluate(() => (window as unknown as { shownFirst?: boolean }).shownFirst)).toBe(true);
      expect((await page.request.get(`${dev.url}/news/${item.slug}`)).status()).toBe(200);

      // The page moves on by client navigation: the live-reload client says so, and the next edit shows there first.
      await page.locator('a[href="/news"]').first().click();
      await expect(page).toHaveURL(`${dev.url}/news`);
      await page.waitForTimeout(500);
      const listReloaded = page.waitForEvent('load', { timeout: 60_000 });
      await updateContent({ url: endpoint! }, token, 'NewsItem', item.id, { title: 'Edited again, shown in the list first' });
      await listReloaded;
      await expect(page.getByText('Edited again, shown in the list first').first()).toBeVisible();
      expect(dev.output()).toMatch(/\[dev\] rendered \/news first in /);
      await dev.waitFor(
        /\[dev\] built [0-9a-f]+ in [\d.]+ m?s; reloading 0 open pages \(1 already shows it\)[\s\S]*\[dev\] built [0-9a-f]+ in [\d.]+ m?s; reloading 0 open pages \(1 already shows it\)/,
        60_000,
      );

      // Deleting the about page breaks the build (its route needs it): the open page keeps the last good build.
      const warned = page.waitForEvent('console', { predicate: (m) => m.text().includes('[site dev] the build failed'), timeout: 60_000 });
      await deleteContent({ url: endpoint! }, token, 'Page', about.id);
      await dev.waitFor(/\[dev\] warning: the build failed/, 60_000);
      await warned;
      const response = await page.reload();
      expect(response?.status()).toBe(200);
      await expect(page.locator('main h1')).toHaveText('News');
      await expect(page.getByText('Edited again, shown in the list first').first()).toBeVisible();
      expect((await page.request.get(`${dev.url}/about`)).status()).toBe(200);
    } finally {
      await dev.stop();
    }
  });
});
