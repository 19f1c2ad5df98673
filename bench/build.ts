/**
 * Build throughput, memory and request figures (issue 9, targets 1–3):
 *   npm run bench:build [-- --pages 10000 --runs 3 --large 50000]
 * Builds a synthetic site served by the embedded backend (`site content serve --scale N`, in its own
 * process, as a real CMS would be), cold (empty build cache) and warm (client bundle cached), and
 * Hugo on equivalent content in the same run, interleaved, and prints medians and the ratio.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeHugoSite } from './hugo-site.ts';
import { measure, median, printTable, type Measurement } from './measure.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ''), process.argv[i + 1] ?? '');
const PAGES = Number(args.get('pages') ?? 10_000);
const RUNS = Number(args.get('runs') ?? 3);
const LARGE = Number(args.get('large') ?? 50_000);
const SITE = join(import.meta.dirname, '../bin/site.js');

const work = await mkdtemp(join(tmpdir(), 'bench-build-'));
const hugo = ensureHugo();

const backend = await startBackend(PAGES);
try {
  const endpoint = `${backend.url}`;
  const build = (cacheDir: string): Promise<Measurement> => measure(process.execPath, [SITE, 'build', '--endpoint', endpoint, '--out', join(work, 'site'), '--cache-dir', cacheDir], { env: { NODE_ENV: 'production' } });
  const cold = await build(join(work, `cache-cold`));
  check(cold, 'cold build');
  const warm: Measurement[] = [];
  const hugoRuns: Measurement[] = [];
  if (hugo) await writeHugoSite(join(work, 'hugo'), PAGES);
  for (let i = 0; i < RUNS; i++) {
    warm.push(check(await build(join(work, 'cache-warm')), 'warm build'));
    if (hugo) hugoRuns.push(check(await measure(hugo, ['--quiet', '--cleanDestinationDir', '-d', join(work, 'hugo-out')], { cwd: join(work, 'hugo') }), 'hugo'));
  }
  const requests = Number(/(\d+) requests/.exec(warm.at(-1)!.stdout)?.[1] ?? NaN);
  const pages = Number(/wrote (\d+) pages/.exec(warm.at(-1)!.stdout)?.[1] ?? NaN);
  const ours = median(warm.map((m) => m.ms));
  const rows: (string | number)[][] = [
    ['', 'wall (median)', 'peak RSS', 'runs'],
    [`site build, cold (${pages} pages)`, secs(cold.ms), mib(cold.peakMiB), 1],
    [`site build, warm (${pages} pages)`, secs(ours), mib(Math.max(...warm.map((m) => m.peakMiB))), warm.length],
  ];
  if (hugo) rows.push([`hugo ${hugoVersion(hugo)} (${PAGES} pages)`, secs(median(hugoRuns.map((m) => m.ms))), mib(Math.max(...hugoRuns.map((m) => m.peakMiB))), hugoRuns.length]);
  console.log(`\nBuild throughput, ${PAGES} synthetic pages, measured side by side in one run:`);
  printTable(rows);
  if (hugo) console.log(`ratio site build (warm) / hugo: ${(ours / median(hugoRuns.map((m) => m.ms))).toFixed(2)}x   (target: at most 2x)`);
  console.log(`requests: ${requests} GraphQL requests for ${pages} pages = ${(requests / pages).toFixed(4)} per page   (target: at most 0.05)`);
  const sizes = await payloadSizes(join(work, 'site'));
  console.log(`payload sizes: p50 ${kb(percentile(sizes, 0.5))}, p95 ${kb(percentile(sizes, 0.95))}, max ${kb(Math.max(...sizes))} over ${sizes.length} payloads`);
} finally {
  await backend.close();
}

if (LARGE > 0) {
  const large = await startBackend(LARGE);
  try {
    const m = check(await measure(process.execPath, [SITE, 'build', '--endpoint', large.url, '--out', join(work, 'large'), '--cache-dir', join(work, 'cache-warm')], { env: { NODE_ENV: 'production' } }), 'large build');
    const pages = Number(/wrote (\d+) pages/.exec(m.stdout)?.[1] ?? NaN);
    console.log(`memory: ${pages} pages built in ${secs(m.ms)} with peak RSS ${mib(m.peakMiB)}   (target: at most 600 MiB at 50,000; 400 MiB at 10,000)`);
  } finally {
    await large.close();
  }
}
await rm(work, { recursive: true, force: true });

// --- internal ---

function check(m: Measurement, what: string): Measurement {
  if (m.code !== 0) throw new Error(`${what} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  return m;
}

function ensureHugo(): string | null {
  if (existsSync('/usr/bin/hugo')) return '/usr/bin/hugo';
  if (process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
    console.log("[bench] installing Debian's hugo package for the comparison…");
    execFileSync('apt-get', ['install', '-y', '-qq', 'hugo'], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
    return '/usr/bin/hugo';
  }
  console.log('[bench] hugo is not installed (sudo apt-get install -y hugo): the Hugo comparison is skipped.');
  return null;
}

function hugoVersion(bin: string): string {
  return /v(\d+\.\d+\.\d+)/.exec(execFileSync(bin, ['version']).toString())?.[1] ?? '';
}

function startBackend(scale: number): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SITE, 'content', 'serve', '--port', '0', '--scale', String(scale)], { env: { ...process.env, NODE_ENV: 'production' } });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/graphql)/.exec(out)?.[1];
      if (url) resolve({ url, close: () => new Promise<void>((ok) => (child.once('close', () => ok()), child.kill('SIGTERM'))) });
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`the content backend exited (${code}) before it listened:\n${out}`)));
  });
}

async function payloadSizes(dir: string): Promise<number[]> {
  const sizes: number[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.name === '_payload.json') sizes.push((await stat(full)).size);
    }
  };
  await walk(dir);
  return sizes;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

function secs(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function mib(n: number): string {
  return `${Math.round(n)} MiB`;
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} kB`;
}
