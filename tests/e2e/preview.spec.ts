import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test, waitForHydration } from './fixtures.ts';
import { DRAFT_TITLE, logIn, startLiveSite, type LiveSite } from './auth-fixtures.ts';

/** Built with a token of its own, which must never reach the output. */
const BUILD_TOKEN = 'build-token-5f1c0e9a7d3b';

let site: LiveSite;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  site = await startLiveSite({ env: { GRAPHQL_TOKEN: BUILD_TOKEN } });
});

test.afterAll(async () => {
  await site?.close();
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Opens the login page of the site at `siteUrl` once hydrated, and submits the form with these credentials. */
async function submitLogin(page: Page, siteUrl: string, email: string, password: string): Promise<void> {
  await page.goto(siteUrl + '/login');
  await waitForHydration(page);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

test.describe('editor preview', () => {
  test('a draft appears only while an editor is logged in, with a banner that says so', async ({ page }) => {
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await page.waitForTimeout(300);
    await expect(page.locator('main')).not.toContainText(DRAFT_TITLE);
    await expect(page.locator('.preview-banner')).toHaveCount(0);

    await logIn(page, site);
    await page.goto(site.url + '/news');
    await expect(page.locator('.preview-banner')).toContainText('Preview mode is on');
    await expect(page.locator('main')).toContainText(DRAFT_TITLE);
    // The same holds on a page of its own kind: the home page's featured news.
    await page.goto(site.url + '/');
    await expect(page.locator('main')).toContainText(DRAFT_TITLE);

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.locator('.preview-banner')).toHaveCount(0);
    await expect(page.locator('main')).not.toContainText(DRAFT_TITLE);
    await page.goto(site.url + '/news');
    await waitForHydration(page);
    await page.waitForTimeout(300);
    await expect(page.locator('main')).not.toContainText(DRAFT_TITLE);
  });

  test('a draft that has no page in the build opens from its own URL while logged in', async ({ page }) => {
    await logIn(page, site);
    await page.goto(site.url + '/news');
    const href = await page.getByRole('link', { name: DRAFT_TITLE }).first().getAttribute('href');
    expect(href).toMatch(/^\/news\/[a-z0-9-]+$/);
    // The build never wrote it: its URL serves 404.html, which preview fills from the API.
    expect((await page.request.get(site.url + href!)).status()).toBe(404);
    await page.goto(site.url + href!);
    await expect(page.locator('main h1')).toHaveText(DRAFT_TITLE);
    await expect(page.locator('.error-screen')).toHaveCount(0);
    // Its image was never copied into the build either: it comes from the API's origin.
    const image = page.locator('main img').first();
    await expect(image).toHaveAttribute('src', new RegExp(`^${site.backend.origin}/media/`));
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });

  test('the login page is kept out of search engines and the sitemap', async ({ page }) => {
    const html = await (await page.request.get(site.url + '/login')).text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    const sitemap = await (await page.request.get(site.url + '/sitemap.xml')).text();
    expect(sitemap).toContain('/news</loc>');
    expect(sitemap).not.toContain('/login');
  });

  test('wrong credentials leave the visitor logged out with the API’s message', async ({ page, context }) => {
    await submitLogin(page, site.url, 'editor@institute.example', 'wrong');
    await expect(page.getByRole('alert')).toHaveText('Invalid email or password.');
    expect((await context.cookies()).map((c) => c.name)).not.toContain('apollo:default.token');
  });

  test('the build token never reaches the output, while the public endpoint does', async () => {
    let configured = 0;
    for (const file of await filesUnder(site.dir)) {
      const text = await readFile(file, 'utf8');
      expect(text.includes(BUILD_TOKEN), file).toBe(false);
      if (text.includes(`"graphqlEndpoint":"${site.backend.url}"`)) configured++;
    }
    expect(configured).toBeGreaterThan(10);
  });
});

test.describe('without a public GraphQL endpoint', () => {
  test('there is no preview: the login form says it is not available, and an old cookie changes nothing', async ({
    page,
    context,
    site: plain,
  }) => {
    await context.addCookies([{ name: 'apollo:default.token', value: 'stale', url: plain.url }]);
    const requests: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && requests.push(r.url()));
    await submitLogin(page, plain.url, 'editor@institute.example', 'preview-editor');
    await expect(page.getByRole('alert')).toContainText('Editor preview is not available on this site');
    await expect(page.locator('.preview-banner')).toHaveCount(0);
    expect(requests).toEqual([]);
  });
});
