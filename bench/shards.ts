/**
 * Sharded builds (issue 22, point 5):
 *   npm run bench:shards [-- --pages 10000 --runs 3 --large 100000 --large-shards 10 --before DIR]
 * On one machine, one shard after the other (each as a CI job would run it): per-shard wall time and peak
 * memory for n = 1, 2, 4 at --pages, the merge's cost, the single-machine build, and at --large pages one
 * shard of --large-shards beside the whole build, both after a warm-up build of the large site. The
 * backend runs in its own process (`site content serve --scale N`), as a real CMS would. Rounds interleave every kind of run; medians
 * over --runs rounds.
 * A shard of n should take about its fixed start plus 1/n of the pages' time. The start is measured on its
 * own, as a shard whose share is almost empty (1 of 1,000): the crawl's lists, the site query, modules, the
 * bundle check. Each shard is printed beside that ideal, start + (one machine - start) / n.
 * --before DIR: another checkout of the project (with its node_modules), whose single-machine build and
 * large shard run interleaved with this one's, for a before/after (`git worktree add DIR COMMIT`).
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScaledBackend } from './backend.ts';
import { measure, median, printTable, type Measurement, removeAfterwards } from './measure.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const PAGES = Number(args.get('pages') ?? 10_000);
const RUNS = Number(args.get('runs') ?? 3);
const LARGE = Number(args.get('large') ?? 100_000);
const LARGE_SHARDS = Number(args.get('large-shards') ?? 10);
const COUNTS = [1, 2, 4];
/** A share so small that what is left is the shard's fixed start. */
const START_PROBE = '1/1000';
const SITE = join(import.meta.dirname, '../bin/site.js');
const BEFORE = args.get('before') ? join(args.get('before')!, 'bin/site.js') : null;
const ENV = { NODE_ENV: 'production', CI: 'true', SOURCE_DATE_EPOCH: '1790000000' };
/**
 * A shard leaves the site search's index to the merge, so the builds compared with shards leave it out
 * too; the merge is measured both ways (the index is most of its cost: bench:search).
 */
const NO_SEARCH = '--no-search';

const work = await mkdtemp(join(tmpdir(), 'bench-shards-'));
let outputs = 0;
const run = async (site: string, what: string, ...args: string[]): Promise<Measurement> => {
  const m = await measure(process.execPath, [site, 'build', '--cache-dir', join(work, 'cache'), '--no-report', '--quiet', ...args], {
    env: ENV,
  });
  if (m.code !== 0) throw new Error(`${what} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  return m;
};
const out = (): string => join(work, `out-${++outputs}`);
const runs = new Map<string, Measurement[]>();
const record = (key: string, m: Measurement): void => void runs.set(key, [...(runs.get(key) ?? []), m]);
const ms = (key: string): number => median(runs.get(key)!.map((m) => m.ms));
const peak = (key: string): number => Math.max(...runs.get(key)!.map((m) => m.peakMiB));

let backend = await startScaledBackend(SITE, PAGES);
try {
  // Fills the build cache (the client bundle) that every build then finds, as a CI cache would.
  await run(SITE, 'warm-up build', '--endpoint', backend.url, '--out', out());
  if (BEFORE) await run(BEFORE, 'warm-up build (before)', '--endpoint', backend.url, '--out', out());
  for (let r = 0; r < RUNS; r++) {
    record('one', await run(SITE, 'one machine', '--endpoint', backend.url, '--out', out(), NO_SEARCH));
    if (BEFORE) record('one-before', await run(BEFORE, 'one machine (before)', '--endpoint', backend.url, '--out', out(), NO_SEARCH));
    record('start', await run(SITE, 'start probe', '--endpoint', backend.url, '--out', out(), '--shard', START_PROBE));
    for (const n of COUNTS) {
      const dirs: string[] = [];
      for (let i = 1; i <= n; i++) {
        dirs.push(out());
        record(`${n}/${i}`, await run(SITE, `shard ${i}/${n}`, '--endpoint', backend.url, '--out', dirs.at(-1)!, '--shard', `${i}/${n}`));
      }
      record(`merge ${n}`, await run(SITE, `merge of ${n}`, '--merge', ...dirs, '--out', out(), NO_SEARCH));
      if (n === COUNTS.at(-1))
        record(`merge ${n} search`, await run(SITE, `merge of ${n} with the search index`, '--merge', ...dirs, '--out', out()));
    }
  }
  await backend.close();

  const one = ms('one');
  const start = ms('start');
  const ideal = (n: number): number => start + (one - start) / n;
  const rows: (string | number)[][] = [['build', 'wall (median)', 'peak memory', 'of one machine', 'ideal (start + pages / n)']];
  rows.push(['one machine', secs(one), mib(peak('one')), '100 %', '']);
  if (BEFORE) rows.push(['one machine, before', secs(ms('one-before')), mib(peak('one-before')), percent(ms('one-before') / one), '']);
  rows.push([`start (shard ${START_PROBE})`, secs(start), mib(peak('start')), percent(start / one), '']);
  for (const n of COUNTS) {
    for (let i = 1; i <= n; i++)
      rows.push([
        `shard ${i}/${n}`,
        secs(ms(`${n}/${i}`)),
        mib(peak(`${n}/${i}`)),
        percent(ms(`${n}/${i}`) / one),
        `${secs(ideal(n))} (${percent(ideal(n) / one)})`,
      ]);
    rows.push([`merge of ${n}`, secs(ms(`merge ${n}`)), mib(peak(`merge ${n}`)), percent(ms(`merge ${n}`) / one), '']);
    if (runs.has(`merge ${n} search`))
      rows.push([
        `merge of ${n}, with the search index`,
        secs(ms(`merge ${n} search`)),
        mib(peak(`merge ${n} search`)),
        percent(ms(`merge ${n} search`) / one),
        '',
      ]);
  }
  console.log(
    `\nSharded builds of ${PAGES.toLocaleString('en-US')} pages, ${RUNS} round(s), one build after the other (${NO_SEARCH} but where said):`,
  );
  printTable(rows);

  // A site ten times larger: one shard against the whole build, which it should divide.
  backend = await startScaledBackend(SITE, LARGE);
  const large: (string | number)[][] = [['build', 'wall', 'peak memory']];
  const shard = ['--endpoint', backend.url, '--shard', `1/${LARGE_SHARDS}`];
  // As at --pages: a build of the whole site first fills the build cache (media, cleaned rich text) and
  // warms the backend, so that the shard and the build it is compared with find the same state. Without
  // it the shard, run first, fetched its media cold while the whole build found a tenth of them cached.
  await run(SITE, 'warm-up build', '--endpoint', backend.url, '--out', out(), NO_SEARCH);
  const probe = await run(SITE, 'start probe', '--endpoint', backend.url, '--shard', START_PROBE, '--out', out());
  const mine = await run(SITE, `shard 1/${LARGE_SHARDS}`, ...shard, '--out', out());
  large.push(
    [`start (shard ${START_PROBE})`, secs(probe.ms), mib(probe.peakMiB)],
    [`shard 1/${LARGE_SHARDS}`, secs(mine.ms), mib(mine.peakMiB)],
  );
  if (BEFORE) {
    const before = await run(BEFORE, `shard 1/${LARGE_SHARDS} (before)`, ...shard, '--out', out());
    large.push([`shard 1/${LARGE_SHARDS}, before`, secs(before.ms), mib(before.peakMiB)]);
  }
  const whole = await run(SITE, 'one machine', '--endpoint', backend.url, '--out', out(), NO_SEARCH);
  large.push(['one machine', secs(whole.ms), mib(whole.peakMiB)]);
  console.log(
    `\n${LARGE.toLocaleString('en-US')} pages, one run each, ${NO_SEARCH} (ideal shard 1/${LARGE_SHARDS}: ${secs(probe.ms + (whole.ms - probe.ms) / LARGE_SHARDS)}):`,
  );
  printTable(large);
} finally {
  await backend.close().catch(() => undefined);
  console.log(`\n${removeAfterwards(work)}`);
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function mib(n: number): string {
  return `${Math.round(n)} MiB`;
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(0)} %`;
}
