/**
 * Edit to live (issue 19, point 4):
 *   npm run bench:edits [-- --pages 10000 --runs 3]   (named bench:live until site live took that name)
 * A backend at `--scale` pages in its own process, editors' changes through its mutations, and in each
 * of RUNS interleaved rounds: a full build into a fresh folder; then, into one folder kept up to date,
 * an update in place after one edited news title, after one added news item, after deleting it, and with
 * nothing changed; and `site publish` of the edited build to an S3-compatible server (what it uploaded).
 * Medians of wall time, each beside the fresh build's and its ratio. `--search` builds the site search's
 * index too (Pagefind cannot update an index in part, so every change that reaches a searched page
 * builds it again).
 * Then (point 5) `site dev` against the same backend, the newest article open in Chromium: DEV_EDITS times
 * from the editor's mutation to its new title in the open page (`--dev-edits 0` leaves it out;
 * `--dev-search` runs `site dev --search`, which builds the search index with every change;
 * `--dev-compare` alternates two sessions each with `site dev --no-open-pages-first`, which waits for the
 * update in place of the whole folder before it reloads the page).
 */
import { mkdir, mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { S3_ENV, startS3Server } from '../tests/helpers/s3-server.ts';
import { createContent, deleteContent, updateContent } from '../tests/helpers/content-edits.ts';
import { startDev } from '../tests/helpers/dev.ts';
import { startScaledBackend } from './backend.ts';
import { benchArgs, measure, median, printTable, type Measurement, removeAfterwards } from './measure.ts';

const args = benchArgs();
const PAGES = Number(args.get('pages') ?? 10_000);
const RUNS = Number(args.get('runs') ?? 3);
const SEARCH = args.has('search');
const DEV_EDITS = Number(args.get('dev-edits') ?? 3);
const DEV_SEARCH = args.has('dev-search');
const DEV_COMPARE = args.has('dev-compare');
const SITE = join(import.meta.dirname, '../bin/site.js');

const work = await mkdtemp(join(tmpdir(), 'bench-live-'));
const backend = await startScaledBackend(SITE, PAGES);
// The bucket's folder goes with the bench's outputs (removeAfterwards).
const bucketDir = join(work, 's3');
await mkdir(bucketDir);
const s3 = await startS3Server({ bucket: 'site', directory: bucketDir });
const env = { NODE_ENV: 'production', CI: 'true' };
const run = async (out: string, ...flags: string[]): Promise<Measurement> => {
  const m = await measure(
    process.execPath,
    [
      SITE,
      'build',
      '--endpoint',
      backend.url,
      '--out',
      join(work, out),
      '--cache-dir',
      join(work, 'cache'),
      '--report',
      join(work, `${out}-report.json`),
      ...(SEARCH ? [] : ['--no-search']),
      ...flags,
    ],
    { env },
  );
  if (m.code !== 0) throw new Error(`build of ${out} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  return m;
};
/**
 * `site publish` of the folder kept up to date, to the test S3 server. Should the publish fail, the files
 * the update in place wrote (its report's `changes.written`, which is what publish compares and uploads)
 * are printed instead, with the reason.
 */
const publish = async (): Promise<{ files: number; bytes: string; ms: number; how: string }> => {
  const m = await measure(
    process.execPath,
    [SITE, 'publish', '--out', join(work, 'live'), '--bucket', 'site', '--endpoint-url', s3.endpoint],
    { env: { ...env, ...S3_ENV } },
  );
  if (m.code === 0) {
    const [, files = 'NaN', bytes = '?'] = /: (\d+) uploaded, \d+ unchanged, \d+ deleted, ([\d.,]+ \S+)/.exec(m.stdout) ?? [];
    return { files: Number(files), bytes, ms: m.ms, how: 'uploaded by site publish' };
  }
  const report = JSON.parse(await readFile(join(work, 'live-report.json'), 'utf8')) as { changes: { written: string[] } };
  const sizes = await Promise.all(
    report.changes.written.map((file) =>
      stat(join(work, 'live', file)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return {
    files: report.changes.written.length,
    bytes: `${(sizes.reduce((a, b) => a + b, 0) / 1024).toFixed(1)} KiB`,
    ms: NaN,
    how: `written by the update in place (publish failed: ${/\[(\w+)\][^\n]*/.exec(m.stdout + m.stderr)?.[0]?.slice(0, 90) ?? m.code})`,
  };
};

async function login(): Promise<string> {
  const response = await fetch(backend.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation { login(email: "editor@institute.example", password: "preview-editor") { token } }' }),
  });
  return ((await response.json()) as { data: { login: { token: string } } }).data.login.token;
}

async function newestNews(): Promise<{ id: string; slug: string }> {
  const response = await fetch(backend.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ newsItems(first: 1) { nodes { id slug } } }' }),
  });
  return ((await response.json()) as { data: { newsItems: { nodes: { id: string; slug: string }[] } } }).data.newsItems.nodes[0]!;
}

/**
 * `site dev` against the backend (its own output folder, the bench's build cache), the newest article
 * open in Chromium; each round edits the article's title through the mutation and times until the open
 * page shows it (dev follows the feed, updates its build in place, and reloads the page).
 */
async function devEdits(token: string, rounds: number, flags: readonly string[] = []): Promise<number[]> {
  const dev = await startDev(
    [
      '--endpoint',
      backend.url,
      '--out',
      join(work, 'dev'),
      '--cache-dir',
      join(work, 'cache'),
      ...(DEV_SEARCH ? ['--search'] : []),
      ...flags,
    ],
    env,
  );
  let browser: Browser | null = null;
  try {
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    await dev.waitFor(/\[dev\] built /, 300_000);
    const article = await newestNews();
    const page = await browser.newPage();
    await page.goto(`${dev.url}/news/${article.slug}/`);
    const ms: number[] = [];
    const whole: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const title = `Edited in site dev, round ${i}, ${Date.now()}`;
      const builds = dev.output().match(/\[dev\] built /g)?.length ?? 0;
      const started = performance.now();
      await updateContent(backend, token, 'NewsItem', article.id, { title });
      await page.locator('h1', { hasText: title }).first().waitFor({ timeout: 300_000 });
      ms.push(performance.now() - started);
      // The update in place of the whole folder, which follows the open page: each round starts after it.
      while ((dev.output().match(/\[dev\] built /g)?.length ?? 0) <= builds) await new Promise((resolve) => setTimeout(resolve, 20));
      whole.push(performance.now() - started);
    }
    console.log(
      `site dev, the same edits to the whole folder updated: median ${(median(whole) / 1000).toFixed(2)} s (${whole.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')})`,
    );
    return ms;
  } finally {
    await browser?.close();
    await dev.stop();
  }
}

try {
  const token = await login();
  // Fills the build cache, writes the folder kept up to date, and publishes it once.
  await run('live');
  await publish();
  const rows = {
    fresh: [] as Measurement[],
    edited: [] as Measurement[],
    added: [] as Measurement[],
    deleted: [] as Measurement[],
    unchanged: [] as Measurement[],
  };
  const published: Awaited<ReturnType<typeof publish>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    rows.fresh.push(await run(`fresh-${i}`));
    await updateContent(backend, token, 'NewsItem', (await newestNews()).id, { title: `Edited live, round ${i}` });
    rows.edited.push(await run('live'));
    published.push(await publish());
    const added = await createContent(backend, token, 'NewsItem', {
      slug: `bench-added-${i}`,
      title: `Added live, round ${i}`,
      date: '2099-01-01',
    });
    rows.added.push(await run('live'));
    await deleteContent(backend, token, 'NewsItem', added.id);
    rows.deleted.push(await run('live'));
    rows.unchanged.push(await run('live'));
  }
  if (RUNS > 0) printRounds(rows, published);
  if (DEV_EDITS > 0) {
    // The open pages first (the default), and, with --dev-compare, waiting for the update in place (--no-open-pages-first), in alternate sessions.
    for (let session = 0; session < (DEV_COMPARE ? 2 : 1); session++) {
      for (const first of DEV_COMPARE ? [true, false] : [true]) {
        const how = first ? '' : ' --no-open-pages-first';
        console.log(`\nsite dev${how}:`);
        const dev = await devEdits(token, DEV_EDITS, first ? [] : ['--no-open-pages-first']);
        console.log(
          `site dev${how}, an edited news title to the open page: median ${(median(dev) / 1000).toFixed(2)} s over ${dev.length} (${dev.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(', ')}; target ≤ 1 s${DEV_SEARCH ? '; site dev --search' : ''})`,
        );
      }
    }
  }
} finally {
  await backend.close();
  await s3.stop();
  console.log(`\n${removeAfterwards(work)}`);
}

function printRounds(
  rows: Record<'fresh' | 'edited' | 'added' | 'deleted' | 'unchanged', Measurement[]>,
  published: Awaited<ReturnType<typeof publish>>[],
): void {
  const base = median(rows.fresh.map((m) => m.ms));
  const row = (name: string, runs: Measurement[], target: string): (string | number)[] => {
    const ms = median(runs.map((m) => m.ms));
    return [
      name,
      `${(ms / 1000).toFixed(2)} s`,
      `${((ms / base) * 100).toFixed(1)}%`,
      target,
      `${Math.round(Math.max(...runs.map((m) => m.peakMiB)))} MiB`,
    ];
  };
  console.log(
    `\n${PAGES.toLocaleString('en-US')}-page site${SEARCH ? ', with the search index' : ', --no-search'}, medians of ${RUNS} interleaved rounds:`,
  );
  printTable([
    ['build', 'wall', 'of a fresh full build', 'target', 'peak memory'],
    row('fresh full build', rows.fresh, ''),
    row('update in place: one news title edited', rows.edited, '≤ 10%'),
    row('update in place: one news item added', rows.added, '≤ 15%'),
    row('update in place: that item deleted', rows.deleted, '≤ 15%'),
    row('update in place: nothing changed', rows.unchanged, '≤ 5%'),
  ]);
  const p = published[Math.floor(published.length / 2)]!;
  console.log(
    `\nafter one edited title: ${p.files} files, ${p.bytes} ${p.how}; each round: ${published.map((x) => `${x.files} files, ${x.bytes}`).join('; ')}`,
  );
}
