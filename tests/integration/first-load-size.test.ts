import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { FIRST_LOAD_BUDGET_BYTES, firstLoadByRoute, NOT_FOUND_PAGE } from '../../bench/first-load.ts';
import type { RouteDefinition } from '../../runtime/routes.ts';
import { routes } from '../../site/routes.ts';
import { buildSampleSite } from '../helpers/cli.ts';

/**
 * Issue 9, target 6: a visitor's first load of any page is at most 78 kB of JavaScript, gzipped (75 before wouter routed in the browser too, issue 18.5), React and
 * ReactDOM included (Sentry loads after the first render). Measured on the sample site with the function
 * `npm run bench:client` prints (bench/first-load.ts): every script the page's HTML loads or preloads.
 * The site is built while the tests are collected, so that each measured route gets a test of its own.
 */

const table: readonly RouteDefinition[] = routes;
const { root, dir: out } = await buildSampleSite('first-load-');
const loads = await firstLoadByRoute(out);

afterAll(() => rm(root, { recursive: true, force: true }));

const kB = (bytes: number): string => `${(bytes / 1024).toFixed(1)} kB`;

describe(`first-load JavaScript (budget ${kB(FIRST_LOAD_BUDGET_BYTES)} gzipped, React and ReactDOM included)`, () => {
  it("is measured for every page module of the route table and for 404.html, each with React and the site's entry", () => {
    const measured = new Set(loads.map((l) => table.find((r) => r.id === l.route)?.page ?? l.route));
    expect([...new Set(table.map((r) => r.page)), NOT_FOUND_PAGE].filter((page) => !measured.has(page))).toEqual([]);
    for (const load of loads) {
      expect(load.react, load.route).toBeGreaterThan(0);
      expect(
        load.scripts.some((s) => /\/entry-[^/]+\.js$/.test(s)),
        load.route,
      ).toBe(true);
    }
  });

  it.each(loads.map((load) => [`${load.route} (${load.path})`, load] as const))('stays within the budget on %s', (_name, load) => {
    const over = load.total - FIRST_LOAD_BUDGET_BYTES;
    expect(
      load.total,
      `${load.route} (${load.path}) loads ${kB(load.total)} of JavaScript first, ${kB(over)} over the ${kB(FIRST_LOAD_BUDGET_BYTES)} budget: ` +
        `React ${kB(load.react)} + ${kB(load.rest)} of the site's own in ${load.scripts.length} files (${load.scripts.join(', ')}). ` +
        'Run `npm run bench:client` to see every route; load what the first render does not need with a dynamic import.',
    ).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });
});
