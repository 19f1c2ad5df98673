/**
 * Sharded builds (issue 22, point 5):
 *   npm run bench:shards [-- --pages 10000 --runs 1 --large 100000 --large-shards 10]
 * On one machine, one shard after the other (each as a CI job would run it): per-shard wall time and peak
 * memory for n = 1, 2, 4 at --pages, the merge's cost, and one shard of --large-shards of a --large-page
 * site. The backend runs in its own process (`site content serve --scale N`), as a real CMS would.
 * Rounds interleave n = 1, 2, 4; medians over --runs rounds. A shard of n should take about 1/n of the
 * pages' time plus a fixed start (modules, site query, the crawl's list queries, bundle check): the fit
 * of t(n) = start + pages / n from n = 1 and n = 4 is printed.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScaledBackend } from './backend.ts';
import { measure, median, printTable, type Measurement } from './measure.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const PAGES = Number(args.get('pages') ?? 10_000);
const RUNS = Number(args.get('runs') ?? 1);
const LARGE = Number(args.get('large') ?? 100_000);
const LARGE_SHARDS = Number(args.get('large-shards') ?? 10);
const COUNTS = [1, 2, 4];
const SITE = join(import.meta.dirname, '../bin/site.js');
const ENV = { NODE_ENV: 'production', CI: 'true', SOURCE_DATE_EPOCH: '1790000000' };

const work = await mkdtemp(join(tmpdir(), 'bench-shards-'));
const run = async (what: string, ...args: string[]): Promise<Measurement> => {
  const m = await measure(process.execPath, [SITE, 'build', '--cache-dir', join(work, 'cache'), '--no-report', '--quiet', ...args], { env: ENV });
  if (m.code !== 0) throw new Error(`${what} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  return m;
};

let backend = await startScaledBackend(SITE, PAGES);
const shardRuns = new Map<string, Measurement[]>();
const mergeRuns = new Map<number, Measurement[]>();
try {
  // Fills the build cache (the client bundle) that every shard then finds, as a CI cache would.
  await run('warm-up build', '--endpoint', backend.url, '--out', join(work, 'warm'));
  for (let r = 0; r < RUNS; r++) {
    for (const n of COUNTS) {
      const dirs: string[] = [];
      for (let i = 1; i <= n; i++) {
        const dir = join(work, `r${r}-n${n}-s${i}`);
        dirs.push(dir);
        const m = await run(`shard ${i}/${n}`, '--endpoint', backend.url, '--out', dir, '--shard', `${i}/${n}`);
        shardRuns.set(`${n}/${i}`, [...(shardRuns.get(`${n}/${i}`) ?? []), m]);
      }
      const merged = await run(`merge of ${n}`, '--merge', ...dirs, '--out', join(work, `r${r}-n${n}-merged`));
      mergeRuns.set(n, [...(mergeRuns.get(n) ?? []), merged]);
    }
  }
  await backend.close();

  const rows: (string | number)[][] = [['shards', 'shard', 'wall (median)', 'peak memory', 'share of n = 1']];
  const one = median(shardRuns.get('1/1')!.map((m) => m.ms));
  for (const n of COUNTS) {
    for (let i = 1; i <= n; i++) {
      const ms = shardRuns.get(`${n}/${i}`)!;
      rows.push([n, `${i}/${n}`, secs(median(ms.map((m) => m.ms))), mib(Math.max(...ms.map((m) => m.peakMiB))), `${((median(ms.map((m) => m.ms)) / one) * 100).toFixed(0)} %`]);
    }
    const merges = mergeRuns.get(n)!;
    rows.push([n, 'merge', secs(median(merges.map((m) => m.ms))), mib(Math.max(...merges.map((m) => m.peakMiB))), '']);
  }
  console.log(`\nSharded builds of ${PAGES.toLocaleString('en-US')} pages on ${RUNS} round(s), one shard after the other:`);
  printTable(rows);
  const four = median(COUNTS.includes(4) ? [...Array(4).keys()].map((i) => median(shardRuns.get(`4/${i + 1}`)!.map((m) => m.ms))) : [one]);
  const pagesTime = ((one - four) * 4) / 3;
  console.log(`fit t(n) = start + pages / n: start ${secs(one - pagesTime)}, pages ${secs(pagesTime)}; a shard of 4 takes ${((four / one) * 100).toFixed(0)} % of one machine's build (ideal with that start: ${(((one - pagesTime + pagesTime / 4) / one) * 100).toFixed(0)} %)`);

  // One shard of a site ten times larger: memory and time stay those of its share, plus the crawl of all.
  backend = await startScaledBackend(SITE, LARGE);
  const large = await run(`shard 1/${LARGE_SHARDS} of ${LARGE}`, '--endpoint', backend.url, '--out', join(work, 'large-s1'), '--shard', `1/${LARGE_SHARDS}`);
  console.log(`\nOne shard (1/${LARGE_SHARDS}) of ${LARGE.toLocaleString('en-US')} pages: ${secs(large.ms)}, peak ${mib(large.peakMiB)}`);
} finally {
  await backend.close().catch(() => undefined);
  console.log(`\n(outputs left in ${work}: deleting large trees slows the next writes on this disk)`);
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function mib(n: number): string {
  return `${Math.round(n)} MiB`;
}
