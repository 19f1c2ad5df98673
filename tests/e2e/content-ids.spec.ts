import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStaticServer, type StaticServer } from '../../cli/serve/static-server.ts';
import { contentId } from '../../runtime/shared/content-ids.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';
import { runCli } from '../helpers/cli.ts';
import { HOSTILE_OVERRIDES } from '../helpers/hostile-ids.ts';
import { expect, test, waitForHydration } from './fixtures.ts';

/**
 * Issue 16.1 in the browser: the embedded backend serves an about page whose sections have the ids
 * `__BOOT__` (with a title that is JSON naming another API endpoint), `app` and `main`. The page must
 * hydrate with the build's own boot data and navigate on the client.
 */

let server: StaticServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const dir = await mkdtemp(join(tmpdir(), 'site-e2e-content-ids-'));
  const overrides = join(dir, 'overrides.json');
  await writeFile(overrides, JSON.stringify(HOSTILE_OVERRIDES));
  const out = join(dir, 'dist');
  const result = await runCli(['build', '--out', out, '--cache-dir', await seedBundle(join(dir, 'cache')), '--quiet', '--no-report'], {
    env: { CONTENT_OVERRIDES_FILE: overrides },
  });
  if (result.code !== 0) throw new Error(`build failed: ${result.stderr}`);
  server = await startStaticServer({ root: out });
});

test.afterAll(async () => {
  await server?.close();
});

test("a page whose content uses the runtime's ids hydrates with its true boot data and navigates on the client", async ({ page }) => {
  const foreign: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(server.url)) foreign.push(request.url());
  });
  const documents: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url());
  });
  await page.goto(`${server.url}/about/about-large`);
  await waitForHydration(page);
  // The content's sections are there, under content ids; the runtime's elements are its own.
  await expect(page.locator(`section#${contentId('__BOOT__')}`)).toHaveCount(1);
  expect(await page.evaluate(() => document.querySelectorAll('[id="__BOOT__"]').length)).toBe(1);
  expect(await page.evaluate(() => document.querySelector('[id="__BOOT__"]')?.tagName)).toBe('SCRIPT');
  expect(await page.evaluate(() => document.querySelectorAll('[id="app"]').length)).toBe(1);
  // The table of contents still reaches the section.
  await page
    .locator(`a[href="#${contentId('history')}"]`)
    .first()
    .click();
  await expect(page).toHaveURL(/#c-history$/);
  // Client navigation works: the runtime booted from the real data, not the section's JSON title.
  await page.locator('a[href="/news"]').first().click();
  await expect(page).toHaveURL(`${server.url}/news`);
  await expect(page.locator('h1')).toContainText('News');
  expect(documents).toHaveLength(1);
  expect(foreign).toEqual([]);
});
