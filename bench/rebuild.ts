/**
 * `site build --full` into the previous output folder (issue 20, target 2):
 *   npm run bench:rebuild [-- --pages 10000 --runs 3]
 * A developer who changed site code rebuilds into the same folder. Interleaved rounds of: a build into a
 * fresh folder; a full build into the previous output with unchanged page files hard-linked (the
 * default); the same with SITE_LINK_UNCHANGED=off (every file written, the retired tree's blocks freed).
 * Medians of wall time, and the ratio of each rebuild to the fresh build.
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
const SITE = join(import.meta.dirname, '../bin/site.js');

const work = await mkdtemp(join(tmpdir(), 'bench-rebuild-'));
const backend = await startScaledBackend(SITE, PAGES);
const run = async (out: string, env: Record<string, string> = {}, ...flags: string[]): Promise<Measurement> => {
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
      '--no-report',
      '--quiet',
      ...flags,
    ],
    { env: { NODE_ENV: 'production', CI: 'true', ...env } },
  );
  if (m.code !== 0) throw new Error(`build of ${out} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  return m;
};
try {
  // Fills the build cache, and writes the two folders the rebuilds go into.
  await run('linked');
  await run('written');
  const fresh: Measurement[] = [];
  const linked: Measurement[] = [];
  const written: Measurement[] = [];
  for (let i = 0; i < RUNS; i++) {
    fresh.push(await run(`fresh-${i}`));
    linked.push(await run('linked', {}, '--full'));
    written.push(await run('written', { SITE_LINK_UNCHANGED: 'off' }, '--full'));
  }
  const base = median(fresh.map((m) => m.ms));
  const row = (name: string, runs: Measurement[]): (string | number)[] => [
    name,
    `${(median(runs.map((m) => m.ms)) / 1000).toFixed(2)} s`,
    `${(median(runs.map((m) => m.ms)) / base).toFixed(2)}x`,
    `${Math.round(Math.max(...runs.map((m) => m.peakMiB)))} MiB`,
  ];
  console.log(`\n${PAGES.toLocaleString('en-US')} pages, medians of ${RUNS} interleaved rounds:`);
  printTable([
    ['build', 'wall', 'vs fresh folder', 'peak memory'],
    row('fresh folder', fresh),
    row('--full into previous, unchanged files linked', linked),
    row('--full into previous, every file written', written),
  ]);
} finally {
  await backend.close();
  console.log(`\n${removeAfterwards(work)}`);
}
