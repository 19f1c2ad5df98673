/**
 * What visitors get (issue 9, target 6):  npm run bench:client [-- --out DIR]
 * Builds the sample site (unless --out names a built one), then prints for one page of every route
 * the first-load JavaScript (every script the HTML loads or preloads, each gzipped as it is served)
 * split into React and the rest, payload sizes (p50, p95), and the time a client navigation to a
 * prefetched page takes to render in Chromium (median of 20).
 */
import { chromium } from '@playwright/test';
import { startStaticServer } from '../cli/serve/static-server.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { buildSampleSite } from '../tests/helpers/cli.ts';
import { FIRST_LOAD_BUDGET_BYTES, firstLoadByRoute } from './first-load.ts';
import { kB, median, payloadSizes, percentile, printTable } from './measure.ts';

const outArg = process.argv.indexOf('--out');
const out = outArg > 0 ? process.argv[outArg + 1]! : (await buildSampleSite('bench-client-')).dir;

const loads = await firstLoadByRoute(out);
const rows: (string | number)[][] = [['route', 'page', 'scripts', 'React kB', 'rest kB', 'first-load kB']];
for (const load of loads) {
  rows.push([
    load.route,
    load.path.length > 40 ? load.path.slice(0, 37) + '...' : load.path,
    load.scripts.length,
    kB(load.react),
    kB(load.rest),
    kB(load.total),
  ]);
}
console.log('\nFirst-load JavaScript per route (gzip -9, each file as served):');
printTable(rows);
const worst = loads.reduce((a, b) => (b.total > a.total ? b : a));
console.log(
  `largest first load: ${kB(worst.total)} kB (${worst.route}: React ${kB(worst.react)} kB + the rest ${kB(worst.rest)} kB)   (budget: ${kB(FIRST_LOAD_BUDGET_BYTES)} kB, React and ReactDOM included)`,
);

const sizes = await payloadSizes(out);
console.log(
  `payloads: p50 ${kB(percentile(sizes, 0.5))} kB, p95 ${kB(percentile(sizes, 0.95))} kB, max ${kB(Math.max(...sizes))} kB over ${sizes.length}`,
);

const server = await startStaticServer({ root: out });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage();
  const timings: number[] = [];
  await page.goto(server.url + '/news');
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
  const links = (await page.locator('main a[href^="/news/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')!))).filter(
    (h) => /^\/news\/[^/]+$/.test(h) && !h.startsWith('/news/page'),
  );
  for (let i = 0; i < 20; i++) {
    const href = links[i % links.length]!;
    const link = page.locator(`main a[href="${href}"]`).first();
    // Hovering prefetches (visible links were prefetched already); wait until the payload is in.
    await link.hover();
    await page
      .waitForFunction((h) => performance.getEntriesByType('resource').some((e) => e.name.includes(`${h}/_payload.json`)), href, {
        timeout: 5000,
      })
      .catch(() => undefined);
    await page.waitForTimeout(100);
    // A string, not a function: tsx's name-keeping helpers do not exist inside the page.
    const ms = (await page.evaluate(`new Promise((resolve) => {
      const t0 = performance.now();
      const check = () => location.pathname === ${JSON.stringify(href)} && document.querySelector('[data-route="news-article"]')
        ? requestAnimationFrame(() => resolve(performance.now() - t0))
        : requestAnimationFrame(check);
      document.querySelector('main a[href=${JSON.stringify(JSON.stringify(href)).slice(1, -1)}]').click();
      check();
    })`)) as number;
    timings.push(ms);
    await page.goBack();
    await page.waitForSelector('[data-route="news"]');
  }
  console.log(
    `navigation to a prefetched page, click to rendered frame: median ${median(timings).toFixed(1)} ms, max ${Math.max(...timings).toFixed(1)} ms over 20   (target: 50 ms)`,
  );
} finally {
  await browser.close();
  await server.close();
}
