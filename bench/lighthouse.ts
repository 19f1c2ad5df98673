/**
 * Lighthouse scores of the built site: `npm run bench:lighthouse` builds the site from the embedded backend
 * (or takes `--site DIR`), serves it with the preview server (cli/serve/static-server.ts) on 127.0.0.1, and audits
 * `/`, `/news`, a news article, an event and `/about/about-large` in Debian's Chromium (`CHROMIUM_PATH` to
 * override) with Lighthouse's default mobile profile (simulated slow 4G, 4× CPU slowdown). Each page is
 * audited `--runs` times (default 3) and the median run per category is reported, as Lighthouse recommends
 * for variable machines. Exits 1 when a score misses its target: 100 for accessibility, best practices and
 * SEO, 95 for performance.
 *
 * The preview server gzips text, as production hosts and CDNs do; Lighthouse's simulated slow 4G makes
 * every uncompressed byte count, and `--raw` measures the files served as they are on disk.
 * `--desktop` uses the desktop profile; `--json FILE` writes the scores, with each page's largest
 * contentful paint and cumulative layout shift; `--performance N` sets the performance target
 * (`npm run bench:images` audits its camera-photo site at 98).
 */
import { rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import lighthouse, { desktopConfig } from 'lighthouse';
import { startStaticServer } from '../cli/serve/static-server.ts';
import { readBuild } from '../cli/output/output.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { buildSampleSite } from '../tests/helpers/cli.ts';
import { median } from './measure.ts';

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

const { values } = parseArgs({
  options: {
    site: { type: 'string' },
    runs: { type: 'string', default: '3' },
    desktop: { type: 'boolean', default: false },
    raw: { type: 'boolean', default: false },
    json: { type: 'string' },
    performance: { type: 'string', default: '95' },
  },
});
const TARGETS: Record<Category, number> = { performance: Number(values.performance), accessibility: 100, 'best-practices': 100, seo: 100 };
const runs = Math.max(1, Number(values.runs) || 1);

const built = values.site ? null : await buildSampleSite('site-lighthouse-');
const siteDir = values.site ? resolve(values.site) : built!.dir;
const server = await startStaticServer({ root: siteDir, compress: !values.raw });
const siteUrl = server.url;
const setup = `${values.desktop ? 'desktop' : 'mobile'} profile, ${values.raw ? 'uncompressed' : 'gzip'} responses`;
console.log(`Lighthouse, ${setup}, ${runs} run${runs > 1 ? 's' : ''} per page`);
const port = await freePort();
// Lighthouse drives the browser over the DevTools protocol on this port; Playwright only starts and stops it.
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [...CHROMIUM_ARGS, `--remote-debugging-port=${port}`],
});
const results: { path: string; scores: Record<Category, number>; lcpMs: number; cls: number }[] = [];
try {
  for (const path of await pagesToAudit(siteDir)) {
    const samples: Audit[] = [];
    for (let run = 0; run < runs; run++) samples.push(await audit(siteUrl + path));
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(samples.map((s) => s.scores[c]))])) as Record<Category, number>;
    const lcpMs = median(samples.map((s) => s.lcpMs));
    const cls = median(samples.map((s) => s.cls));
    results.push({ path, scores, lcpMs, cls });
    console.log(
      `${path.padEnd(52)} ${CATEGORIES.map((c) => `${c} ${String(scores[c]).padStart(3)}`).join('  ')}  LCP ${(lcpMs / 1000).toFixed(1)} s  CLS ${cls.toFixed(3)}${runs > 1 ? `  (median of ${runs})` : ''}`,
    );
  }
} finally {
  await browser.close();
  await server.close();
  if (built) await rm(built.root, { recursive: true, force: true });
}

if (values.json)
  await writeFile(
    values.json,
    JSON.stringify({ profile: values.desktop ? 'desktop' : 'mobile', compressed: !values.raw, runs, results }, null, 2) + '\n',
  );
const misses = results.flatMap(({ path, scores }) =>
  CATEGORIES.filter((c) => scores[c] < TARGETS[c]).map((c) => `${path}: ${c} ${scores[c]} < ${TARGETS[c]}`),
);
if (misses.length > 0) {
  console.error(`Below target:\n  ${misses.join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.log(`Every page meets its targets (${setup}).`);
}

// --- helpers ---

interface Audit {
  scores: Record<Category, number>;
  lcpMs: number;
  cls: number;
}

async function audit(url: string): Promise<Audit> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
    values.desktop ? desktopConfig : undefined,
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}.`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${lhr.runtimeError.message}`);
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<
    Category,
    number
  >;
  // Name what cost points, so a miss says where to look.
  for (const c of CATEGORIES) {
    if (scores[c] >= TARGETS[c]) continue;
    const failing = (lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${ref.id} (${lhr.audits[ref.id]?.displayValue ?? lhr.audits[ref.id]?.score})`);
    console.log(`  ${url} ${c} ${scores[c]}: ${failing.join(', ')}`);
  }
  return {
    scores,
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
  };
}

/** `/`, `/news`, the first news article and event the build wrote, and the long about page. */
async function pagesToAudit(dir: string): Promise<string[]> {
  const { meta } = await readBuild(dir);
  const first = (pattern: RegExp): string => {
    const path = [...meta.prerendered].sort().find((p) => pattern.test(p));
    if (!path) throw new Error(`The build has no page matching ${pattern}.`);
    return path;
  };
  return ['/', '/news', first(/^\/news\/(?!page\/)[^/]+$/), first(/^\/events\/(?!page\/)[^/]+\/[^/]+$/), '/about/about-large'];
}

/** A port nothing listens on, for the browser's DevTools endpoint. */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? ok(address.port) : fail(new Error('No free port.'))));
    });
  });
}
