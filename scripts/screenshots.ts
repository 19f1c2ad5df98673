/**
 * Screenshots of every route type at a phone width (375 px) and a desktop width (1280 px), for reviewing the
 * design: `npm run screenshots` builds the site from the embedded backend (or takes `--site DIR`, an existing
 * build), serves it on 127.0.0.1 and writes full-page PNGs to `screenshots/` (`--out DIR`). `--dark` adds the
 * dark colour scheme. Uses Debian's Chromium (`CHROMIUM_PATH` to override), like the browser tests.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { startStaticServer } from '../cli/serve/static-server.ts';
import { readBuild } from '../cli/output/output.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { findRoute, type RouteDefinition } from '../runtime/routes.ts';
import { routes } from '../site/routes.ts';
import { buildSampleSite } from '../tests/helpers/cli.ts';

const WIDTHS = [375, 1280] as const;

const { values } = parseArgs({
  options: {
    site: { type: 'string' },
    out: { type: 'string', default: 'screenshots' },
    dark: { type: 'boolean', default: false },
  },
});

const outDir = resolve(values.out);
const built = values.site ? null : await buildSampleSite('site-screenshots-');
const siteDir = values.site ? resolve(values.site) : built!.dir;
const server = await startStaticServer({ root: siteDir });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  await mkdir(outDir, { recursive: true });
  const targets = routeSamples(await prerenderedPaths(siteDir));
  const schemes = values.dark ? (['light', 'dark'] as const) : (['light'] as const);
  for (const scheme of schemes) {
    for (const width of WIDTHS) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      for (const { route, path } of targets) {
        await page.goto(server.url + path, { waitUntil: 'load' });
        await page
          .waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 10_000 })
          .catch(() => {});
        // Lazy images below the fold would otherwise show as empty boxes in a full-page shot.
        await page.evaluate(() => document.querySelectorAll('img[loading="lazy"]').forEach((img) => img.setAttribute('loading', 'eager')));
        await page.waitForLoadState('networkidle');
        const file = join(outDir, `${route.id}-${width}${scheme === 'dark' ? '-dark' : ''}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(`${path} → ${file}`);
      }
      await context.close();
    }
  }
  // A miss shows the error screen (404.html).
  const context = await browser.newContext({ viewport: { width: 375, height: 900 } });
  const page = await context.newPage();
  await page.goto(server.url + '/no-such-page');
  await page.screenshot({ path: join(outDir, 'not-found-375.png'), fullPage: true });
  await context.close();
} finally {
  await browser.close();
  await server.close();
  if (built) await rm(built.root, { recursive: true, force: true });
}

async function prerenderedPaths(dir: string): Promise<string[]> {
  return (await readBuild(dir)).meta.prerendered;
}

/** One prerendered path per route: the first one (in sorted order) that the route table matches to it. */
function routeSamples(paths: readonly string[]): { route: RouteDefinition; path: string }[] {
  const table: readonly RouteDefinition[] = routes;
  const samples = new Map<string, { route: RouteDefinition; path: string }>();
  for (const path of [...paths].sort()) {
    const match = findRoute(table, path);
    if (match && !samples.has(match.route.id)) samples.set(match.route.id, { route: match.route, path });
  }
  return table.flatMap((route) => samples.get(route.id) ?? []);
}
