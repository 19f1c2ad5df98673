import { expect, test, waitForHydration } from './fixtures.ts';

/** One concrete path per route of docs/decisions/route-table.md, with the layout it must use. */
const SPEC_ROUTES: { pattern: RegExp; layout: 'home' | 'default' }[] = [
  { pattern: /^\/$/, layout: 'home' },
  { pattern: /^\/news$/, layout: 'default' },
  { pattern: /^\/news\/[^/]+$/, layout: 'default' },
  { pattern: /^\/about$/, layout: 'default' },
  { pattern: /^\/about\/people$/, layout: 'default' },
  { pattern: /^\/about\/contact$/, layout: 'default' },
  { pattern: /^\/about\/podcast$/, layout: 'default' },
  { pattern: /^\/about\/about-large$/, layout: 'default' },
  { pattern: /^\/about\/artistic-research$/, layout: 'default' },
  { pattern: /^\/events$/, layout: 'default' },
  { pattern: /^\/events\/[^/]+$/, layout: 'default' },
  { pattern: /^\/events\/[^/]+\/[^/]+$/, layout: 'default' },
  { pattern: /^\/publications$/, layout: 'default' },
  { pattern: /^\/publication\/[^/]+$/, layout: 'default' },
  { pattern: /^\/publication\/[^/]+\/[^/]+$/, layout: 'default' },
  { pattern: /^\/courses$/, layout: 'default' },
  { pattern: /^\/research$/, layout: 'default' },
  { pattern: /^\/research\/[^/]+$/, layout: 'default' },
  { pattern: /^\/documents$/, layout: 'default' },
];

test('every route of the spec answers 200 with its own content in the right layout, and hydrates without errors', async ({
  page,
  site,
  consoleProblems,
}) => {
  const headings = new Map<string, string>();
  for (const { pattern, layout } of SPEC_ROUTES) {
    const path = site.meta.prerendered.find((p) => pattern.test(p));
    expect(path, `a prerendered page for ${pattern}`).toBeTruthy();
    const response = await page.goto(site.url + path);
    expect(response?.status(), path).toBe(200);
    await waitForHydration(page);
    await expect(page.locator('[data-layout]')).toHaveAttribute('data-layout', layout);
    const h1 = (await page.locator('main h1').first().textContent())?.trim() ?? '';
    expect(h1.length, `${path} has a heading`).toBeGreaterThan(0);
    headings.set(path!, h1);
    expect(await page.locator('main').innerText()).not.toBe('');
  }
  // Each page shows its own content, not a shared placeholder.
  expect(new Set(headings.values()).size).toBeGreaterThanOrEqual(SPEC_ROUTES.length - 2);
  expect(consoleProblems).toEqual([]);
});

test("a page's HTML carries its data as inline JSON with no raw '<'", async ({ request, site }) => {
  const path = site.meta.prerendered.find((p) => /^\/news\/[^/]+$/.test(p))!;
  const html = await (await request.get(site.url + path)).text();
  const inline = /<script type="application\/json" id="__BOOT__">([\s\S]*?)<\/script>/.exec(html)?.[1];
  expect(inline).toBeTruthy();
  expect(inline).not.toContain('<');
  const boot = JSON.parse(inline!) as { path: string; data: unknown; buildId: string };
  const payload = (await (await request.get(`${site.url}${path}/_payload.json`)).json()) as { data: unknown; buildId: string };
  expect(boot.path).toBe(path);
  expect(boot.data).toEqual(payload.data);
  expect(boot.buildId).toBe(payload.buildId);
});

test('a client navigation fetches the target page payload and no HTML document', async ({ page, site, consoleProblems }) => {
  await page.goto(site.url + '/news');
  await waitForHydration(page);
  const documents: string[] = [];
  const payloads: string[] = [];
  page.on('request', (req) => {
    if (req.resourceType() === 'document') documents.push(req.url());
    if (req.url().includes('_payload.json')) payloads.push(new URL(req.url()).pathname + new URL(req.url()).search);
  });
  const link = page.locator('main a[href^="/news/"]').first();
  const href = await link.getAttribute('href');
  await link.click();
  await expect(page).toHaveURL(site.url + href);
  await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news-article');
  // Visible links are prefetched too; the target's payload is among the requests, and no document is.
  expect(payloads).toContain(`${href}/_payload.json?${site.meta.id}`);
  expect(documents).toEqual([]);
  // Back returns to the list, again without a document load.
  await page.goBack();
  await expect(page.locator('[data-route]')).toHaveAttribute('data-route', 'news');
  expect(documents).toEqual([]);
  expect(consoleProblems).toEqual([]);
});

test('an unknown path shows the 404 error screen with a link home', async ({ page, site }) => {
  const response = await page.goto(site.url + '/no-such-page');
  expect(response?.status()).toBe(404);
  await waitForHydration(page);
  const screen = page.locator('.error-screen');
  await expect(screen.locator('.error-screen__digit')).toHaveText(['4', '0', '4']);
  await expect(screen).toContainText('The page could not be found.');
  const home = screen.getByRole('link', { name: 'Please go back to homepage.' });
  await expect(home).toHaveAttribute('href', '/');
  await home.click();
  await expect(page.locator('[data-layout]')).toHaveAttribute('data-layout', 'home');
});

test('a link to an unknown path shows the error screen without a page load', async ({ page, site }) => {
  await page.goto(site.url + '/');
  await waitForHydration(page);
  const documents: string[] = [];
  page.on('request', (req) => req.resourceType() === 'document' && documents.push(req.url()));
  // A plain anchor, as rich text from the CMS would contain.
  await page.evaluate(() => {
    const a = document.createElement('a');
    a.href = '/missing/page';
    a.textContent = 'missing';
    a.id = 'missing-link';
    document.querySelector('main')?.append(a);
  });
  await page.locator('#missing-link').click();
  await expect(page).toHaveURL(site.url + '/missing/page');
  await expect(page.locator('.error-screen__digit')).toHaveText(['4', '0', '4']);
  await expect(page.locator('.error-screen')).toContainText('The page could not be found.');
  expect(documents).toEqual([]);
});
