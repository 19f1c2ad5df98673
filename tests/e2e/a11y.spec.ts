import AxeBuilder from '@axe-core/playwright';
import { findRoute, type RouteDefinition } from '../../runtime/routes.ts';
import { routes } from '../../site/routes.ts';
import type { Page } from '@playwright/test';
import { expect, test, waitForHydration, type BuiltSite } from './fixtures.ts';

/**
 * axe-core (WCAG 2.0–2.2 A and AA rules, plus best practices) finds no violations on any route type, in
 * the light and the dark colour scheme, once the page has hydrated.
 */

// The file's longest tests run beside each other on both workers: each sets up its own page and servers.
test.describe.configure({ mode: 'parallel' });

const table: readonly RouteDefinition[] = routes;
const REQUIRED = [
  'home',
  'news',
  'news-page',
  'news-article',
  'about',
  'about-people',
  'about-contact',
  'about-podcast',
  'about-large',
  'about-artistic-research',
  'events',
  'events-page',
  'event-category',
  'event',
  'publications',
  'publications-page',
  'publication-category',
  'publication',
  'courses',
  'research',
  'research-project',
  'documents',
  'documents-page',
];

/** One prerendered path per route: the first, in sorted order, that the route table matches to it. */
function samplePaths(site: BuiltSite): [string, string][] {
  const samples = new Map<string, string>();
  for (const path of [...site.meta.prerendered].sort()) {
    const id = findRoute(table, path)?.route.id;
    if (id && !samples.has(id)) samples.set(id, path);
  }
  return table.flatMap((route) => (samples.has(route.id) ? [[route.id, samples.get(route.id)!] as [string, string]] : []));
}

/**
 * Every rule of the tags runs and every violation comes with all its nodes; axe only skips gathering the
 * details of what passed (or did not apply), which the tests never read: about a fifth of its time.
 */
const VIOLATIONS_ONLY: Parameters<AxeBuilder['options']>[0] = { resultTypes: ['violations'] };

/**
 * axe's violations on the page as it is, with the rules of `tags`. axe runs in the page itself (`axe.run`,
 * the builder's legacy mode), injected into every frame of it as before. The builder's default runs each
 * frame's part and then opens a blank page, injects axe a second time there and merges the parts in it:
 * that exists for cross-origin frames, which the site's pages do not have, and it was half of axe's time
 * (the same rules, the same results).
 */
async function axeViolations(page: Page, tags: string[]): Promise<Awaited<ReturnType<AxeBuilder['analyze']>>['violations']> {
  const { violations } = await new AxeBuilder({ page }).withTags(tags).options(VIOLATIONS_ONLY).setLegacyMode().analyze();
  return violations;
}

function describeViolations(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']): string[] {
  return violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`);
}

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`accessibility in the ${scheme} colour scheme`, () => {
    test.use({ colorScheme: scheme });

    test('every route type has no axe violations', async ({ page, site }) => {
      test.setTimeout(180_000);
      const paths = samplePaths(site);
      // Every route with a page in the sample content is checked: each page type of the issue, later list pages included.
      expect(paths.map(([id]) => id)).toEqual(expect.arrayContaining(REQUIRED));
      const failures: string[] = [];
      for (const [id, path] of [...paths, ['not-found', '/no-such-page'] as [string, string]]) {
        await page.goto(site.url + path);
        await waitForHydration(page);
        const violations = await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']);
        if (violations.length > 0) failures.push(`${id} ${path}:\n  ${describeViolations(violations).join('\n  ')}`);
      }
      expect(failures).toEqual([]);
    });
  });
}

test('the course filter keeps the page free of violations while a level is selected', async ({ page, site }) => {
  await page.goto(site.url + '/courses?level=Master');
  await waitForHydration(page);
  await expect(page.locator('.course-list > li')).not.toHaveCount(0);
  const violations = await axeViolations(page, ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice']);
  expect(describeViolations(violations)).toEqual([]);
});
