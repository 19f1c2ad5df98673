import type { Page } from '@playwright/test';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { rollup } from 'rollup';
import { createClientPlugins } from '../../rollup.config.ts';
import { App } from '../../runtime/app.tsx';
import { ROOT } from '../helpers/cli.ts';
import { expect, test, waitForHydration } from './fixtures.ts';
import { createFixtureNavigation, layouts, type Recorded } from './wouter/app.tsx';

/**
 * Site code routes with wouter, the same package on the server and in the browser: the runtime's App gives
 * wouter's Router a location hook fed by the navigation store (runtime/location.ts). The page under test
 * (tests/e2e/wouter/app.tsx) uses routes with params, useParams, and a nested Router base with a Link, and
 * is bundled with the site's own client plugins, so it resolves wouter as every page does.
 */

const ORIGIN = 'http://wouter.test';
let script = '';

test.beforeAll(async () => {
  const bundle = await rollup({
    input: `${ROOT}/tests/e2e/wouter/entry.tsx`,
    plugins: createClientPlugins({ minify: false }),
    onwarn: () => undefined,
  });
  const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
  await bundle.close();
  script = output[0].code;
});

/** Renders `href` as the build would, serves that markup with the bundle, and waits for hydration; returns the markup. */
async function open(page: Page, href: string): Promise<string> {
  const markup = renderToString(createElement(App, { nav: createFixtureNavigation(href), layouts }));
  const html = `<!doctype html><html lang="en"><head><title>wouter</title><script type="module" src="/entry.js"></script></head><body><div id="app">${markup}</div></body></html>`;
  await page.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/entry.js'
      ? route.fulfill({ contentType: 'text/javascript', body: script })
      : route.fulfill({ contentType: 'text/html', body: html }),
  );
  await page.goto(ORIGIN + href);
  await waitForHydration(page);
  return markup;
}

test('routes, params, a nested base and an active Link render the same on the server and in the browser', async ({
  page,
  consoleProblems,
}) => {
  const markup = await open(page, '/people/ada?tab=talks');
  expect(markup).toContain('<h1>ada</h1>');
  expect(markup).toContain('<p id="here">/ada?tab=talks</p>');
  expect(markup).toContain('<a href="/people/grace" class="other">Grace</a>');
  // Hydration reuses that markup: React reports any difference as a console error.
  await expect(page.locator('h1')).toHaveText('ada');
  await expect(page.locator('#here')).toHaveText('/ada?tab=talks');
  await expect(page.getByRole('link', { name: 'Grace' })).toHaveAttribute('href', '/people/grace');
  expect(consoleProblems).toEqual([]);
});

test("a Link under a nested base and useLocation's navigate are navigations of the runtime, not of wouter", async ({
  page,
  consoleProblems,
}) => {
  await open(page, '/people/ada?tab=talks');
  await page.getByRole('link', { name: 'Grace' }).click();
  await expect(page.locator('h1')).toHaveText('grace');
  await expect(page.locator('#here')).toHaveText('/grace?');
  await expect(page.getByRole('link', { name: 'Grace' })).toHaveClass('current');

  await page.getByRole('button', { name: 'Lin' }).click();
  await expect(page.locator('h1')).toHaveText('lin');
  await expect(page.locator('#here')).toHaveText('/lin?tab=papers');

  expect(await page.evaluate(() => (window as unknown as { recorded: Recorded[] }).recorded)).toEqual([
    { to: '/people/grace', replace: false },
    { to: '/people/lin?tab=papers', replace: true },
  ]);
  // This navigation writes no history: had wouter pushed the URL itself, the address bar would show it.
  expect(page.url()).toBe(`${ORIGIN}/people/ada?tab=talks`);
  expect(consoleProblems).toEqual([]);
});
