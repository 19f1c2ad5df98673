/**
 * What the site search costs the build (issue 21.4):
 *   npm run bench:search [-- --pages 10000 --runs 3]
 * Builds a synthetic site (`site content serve --scale N`, in its own process) into fresh folders, in
 * interleaved rounds without the search index (--no-search), with it and no partition in the build cache
 * (every page indexed), and with it again (every partition from the build cache), after a first build
 * that fills the build cache; then updates the last folder of each kind in place, first with nothing
 * changed (the index is kept as it is); then, after one news item was edited in the backend, builds the
 * edited site into fresh folders (its edited partition indexed, the others from the cache) and updates
 * the last folders in place (with the cache left out, the partitions of the pages whose documents changed
 * are built again: Pagefind cannot update an index in part).
 * Prints medians of wall time, the time the index adds and its share of a build without it (target: at
 * most 15%), the peak memory of the build and of Pagefind's own process, and the index's size on disk.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScaledBackend } from './backend.ts';
import { median, printTable } from './measure.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const PAGES = Number(args.get('pages') ?? 10_000);
const RUNS = Number(args.get('runs') ?? 3);
const SITE = join(import.meta.dirname, '../bin/site.js');

/** One build: wall time, the build process's peak RSS and the largest peak of a process it started (Pagefind). */
interface Run {
  ms: number;
  buildMiB: number;
  childMiB: number;
  stdout: string;
}

const work = await mkdtemp(join(tmpdir(), 'bench-search-'));
const overrides = join(work, 'overrides.json');
await writeFile(overrides, '{}');
const startBackend = (port = 0): ReturnType<typeof startScaledBackend> =>
  startScaledBackend(SITE, PAGES, { port, env: { CONTENT_OVERRIDES_FILE: overrides } });
let backend = await startBackend();
const build = async (out: string, ...flags: (string | NodeJS.ProcessEnv)[]): Promise<Run> => {
  const env = Object.assign({ NODE_ENV: 'production', CI: 'true' }, ...flags.filter((f) => typeof f !== 'string')) as NodeJS.ProcessEnv;
  const argv = flags.filter((f) => typeof f === 'string');
  const run = await measureTree(
    process.execPath,
    [SITE, 'build', '--endpoint', backend.url, '--out', join(work, out), '--cache-dir', join(work, 'cache'), '--no-report', ...argv],
    env,
  );
  if (run.code !== 0) throw new Error(`build of ${out} failed (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  return run;
};
try {
  await build('warm', '--no-search');
  const cold: Run[] = [];
  const on: Run[] = [];
  const off: Run[] = [];
  for (let i = 0; i < RUNS; i++) {
    off.push(await build(`off-${i}`, '--no-search'));
    // The partitions the build cache keeps are forgotten: every page indexed, as on a site's first build.
    await rm(join(work, 'cache', 'search'), { recursive: true, force: true });
    cold.push(await build(`cold-${i}`));
    on.push(await build(`on-${i}`));
  }
  const inPlaceOff = await build(`off-${RUNS - 1}`, '--no-search');
  const inPlaceOn = await build(`on-${RUNS - 1}`);
  // One news item edited, as bench/build.ts does: both folders are updated in place again.
  const feed = await readFile(join(work, `on-${RUNS - 1}`, 'feeds/news.xml'), 'utf8');
  const slug = /<link>[^<]*\/news\/([^<]+)<\/link>/.exec(feed.slice(feed.indexOf('<item>')))![1]!;
  await writeFile(overrides, JSON.stringify({ news: [{ slug, title: 'A corrected headline', updatedAt: '2026-11-21T09:00:00Z' }] }));
  const port = Number(new URL(backend.url).port);
  await backend.close();
  backend = await startBackend(port);
  // First into fresh folders, as CI builds an edited site (the edited partition indexed, the others from the
  // cache); then in place, the cache left out, since it now holds the edited partition too.
  const editedFullOff = await build('edited-off', '--no-search');
  const editedFullOn = await build('edited-on');
  const editedOff = await build(`off-${RUNS - 1}`, '--no-search');
  const editedOn = await build(`on-${RUNS - 1}`, { SITE_SEARCH_CACHE: 'off' });
  const index = await folderSize(join(work, `on-${RUNS - 1}`, '_search'));
  const pages = Number(/wrote (\d+) pages/.exec(on.at(-1)!.stdout)?.[1] ?? NaN);
  const line = /\[search\] (.*)/.exec(on.at(-1)!.stdout)?.[1] ?? '(no [search] line)';
  const ms = (runs: Run[]): number => median(runs.map((r) => r.ms));
  const secs = (n: number): string => `${(n / 1000).toFixed(2)} s`;
  const mib = (n: number): string => `${Math.round(n)} MiB`;
  const peak = (runs: Run[], key: 'buildMiB' | 'childMiB'): number => Math.max(...runs.map((r) => r[key]));
  console.log(`\nSite search, ${pages} pages, ${RUNS} interleaved rounds (medians):`);
  printTable([
    ['', 'wall', 'build peak RSS', 'Pagefind peak RSS'],
    ['full build, --no-search', secs(ms(off)), mib(peak(off, 'buildMiB')), '-'],
    [
      'full build, with the search index, no partition in the build cache',
      secs(ms(cold)),
      mib(peak(cold, 'buildMiB')),
      mib(peak(cold, 'childMiB')),
    ],
    [
      'full build, with the search index, every partition from the build cache',
      secs(ms(on)),
      mib(peak(on, 'buildMiB')),
      on.some((r) => r.childMiB > 0) ? mib(peak(on, 'childMiB')) : '-',
    ],
    ['update in place, nothing changed, --no-search', secs(inPlaceOff.ms), mib(inPlaceOff.buildMiB), '-'],
    [
      'update in place, nothing changed, with the index (kept)',
      secs(inPlaceOn.ms),
      mib(inPlaceOn.buildMiB),
      inPlaceOn.childMiB > 0 ? mib(inPlaceOn.childMiB) : '-',
    ],
    ['update in place, one news item edited, --no-search', secs(editedOff.ms), mib(editedOff.buildMiB), '-'],
    [
      'update in place, one news item edited, with the index (its changed partitions built again, SITE_SEARCH_CACHE=off)',
      secs(editedOn.ms),
      mib(editedOn.buildMiB),
      mib(editedOn.childMiB),
    ],
    ['full build after that edit, --no-search (1 run)', secs(editedFullOff.ms), mib(editedFullOff.buildMiB), '-'],
    [
      'full build after that edit, with the index (its changed partitions built, the others from the cache; 1 run)',
      secs(editedFullOn.ms),
      mib(editedFullOn.buildMiB),
      mib(editedFullOn.childMiB),
    ],
  ]);
  const share = (withIndex: number, without: number): string =>
    `${secs(withIndex - without)} = ${(((withIndex - without) / without) * 100).toFixed(0)}%`;
  console.log(`index adds to a full build (share of the build without it; target: at most 15%):`);
  console.log(`  no partition cached: ${share(ms(cold), ms(off))}`);
  console.log(`  every partition cached: ${share(ms(on), ms(off))}`);
  console.log(
    `  after one edit, the others cached: ${share(editedFullOn.ms, editedFullOff.ms)}   (${/\[search\] (.*)/.exec(editedFullOn.stdout)?.[1] ?? 'no [search] line'})`,
  );
  console.log(`index: ${(index.bytes / 1024 / 1024).toFixed(1)} MiB in ${index.files} files; ${line}`);
} finally {
  await backend.close();
  await rm(work, { recursive: true, force: true });
}

// --- internal ---

/**
 * Runs a command and samples the peak resident set size (VmHWM) of it and of every process it starts,
 * until it exits: Pagefind runs as a process of the build's, whose memory the build's own peak leaves out.
 */
function measureTree(command: string, argv: string[], env: NodeJS.ProcessEnv): Promise<Run & { code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, argv, { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    const peaks = new Map<number, number>();
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const sample = setInterval(() => {
      void descendants(child.pid!).then((pids) =>
        Promise.all(
          [child.pid!, ...pids].map(async (pid) => {
            const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
            const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
            peaks.set(pid, Math.max(peaks.get(pid) ?? 0, hwm));
          }),
        ),
      );
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(sample);
      const buildKiB = peaks.get(child.pid!) ?? 0;
      const childKiB = Math.max(0, ...[...peaks].filter(([pid]) => pid !== child.pid).map(([, kib]) => kib));
      resolve({ ms: performance.now() - started, buildMiB: buildKiB / 1024, childMiB: childKiB / 1024, code, stdout, stderr });
    });
  });
}

/** Every process below `pid`, from /proc's children lists. */
async function descendants(pid: number): Promise<number[]> {
  const found: number[] = [];
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  for (const task of tasks) {
    const children = (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')).split(' ').filter(Boolean).map(Number);
    for (const child of children) found.push(child, ...(await descendants(child)));
  }
  return found;
}

async function folderSize(dir: string): Promise<{ bytes: number; files: number }> {
  let bytes = 0;
  let files = 0;
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    bytes += (await stat(join(entry.parentPath, entry.name))).size;
    files++;
  }
  return { bytes, files };
}
