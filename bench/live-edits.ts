/**
 * Edit to live (issue 19, point 4):
 *   npm run bench:live [-- --pages 10000 --runs 3]
 * A backend at `--scale` pages in its own process, editors' changes through its mutations, and in each
 * of RUNS interleaved rounds: a full build into a fresh folder; then, into one folder kept up to date,
 * an update in place after one edited news title, after one added news item, after deleting it, and with
 * nothing changed; and `site publish` of the edited build to an S3-compatible server (what it uploaded).
 * Medians of wall time, each beside the fresh build's and its ratio. `--search` builds the site search's
 * index too (Pagefind cannot update an index in part, so every change that reaches a searched page
 * builds it again).
 */
import { mkdtemp, readFile, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3_ENV, startS3Server } from '../tests/helpers/s3-server.ts';
import { createContent, deleteContent, updateContent } from '../tests/helpers/content-edits.ts';
import { startScaledBackend } from './backend.ts';
import { measure, median, printTable, type Measurement } from './measure.ts';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i++) {
  const name = process.argv[i]!.replace(/^--/, '');
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) args.set(name, 'true');
  else {
    args.set(name, value);
    i++;
  }
}
const PAGES = Number(args.get('pages') ?? 10_000);
const RUNS = Number(args.get('runs') ?? 3);
const SEARCH = args.has('search');
const SITE = join(import.meta.dirname, '../bin/site.js');

const work = await mkdtemp(join(tmpdir(), 'bench-live-'));
const backend = await startScaledBackend(SITE, PAGES);
const s3 = await startS3Server({ bucket: 'site' });
const env = { NODE_ENV: 'production', CI: 'true' };
const run = async (out: string, ...flags: string[]): Promise<Measurement> => {
  const m = await measure(process.execPath, [SITE, 'build', '--endpoint', backend.url, '--out', join(work, out), '--cache-dir', join(work, 'cache'), '--report', join(work, `${out}-report.json`), ...(SEARCH ? [] : ['--no-search']), ...flags], { env });
  if (m.code !== 0) throw new Error(`build of ${out} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  return m;
};
/**
 * `site publish` of the folder kept up to date, to the test S3 server. Should the publish fail, the files
 * the update in place wrote (its report's `changes.written`, which is what publish compares and uploads)
 * are printed instead, with the reason.
 */
const publish = async (): Promise<{ files: number; bytes: string; ms: number; how: string }> => {
  const m = await measure(process.execPath, [SITE, 'publish', '--out', join(work, 'live'), '--bucket', 'site', '--endpoint-url', s3.endpoint], { env: { ...env, ...S3_ENV } });
  if (m.code === 0) {
    const [, files = 'NaN', bytes = '?'] = /: (\d+) uploaded, \d+ unchanged, \d+ deleted, ([\d.,]+ \S+)/.exec(m.stdout) ?? [];
    return { files: Number(files), bytes, ms: m.ms, how: 'uploaded by site publish' };
  }
  const report = JSON.parse(await readFile(join(work, 'live-report.json'), 'utf8')) as { changes: { written: string[] } };
  const sizes = await Promise.all(report.changes.written.map((file) => stat(join(work, 'live', file)).then((s) => s.size, () => 0)));
  return { files: report.changes.written.length, bytes: `${(sizes.reduce((a, b) => a + b, 0) / 1024).toFixed(1)} KiB`, ms: NaN, how: `written by the update in place (publish failed: ${/\[(\w+)\][^\n]*/.exec(m.stdout + m.stderr)?.[0]?.slice(0, 90) ?? m.code})` };
};

async function login(): Promise<string> {
  const response = await fetch(backend.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'mutation { login(email: "editor@institute.example", password: "preview-editor") { token } }' }) });
  return ((await response.json()) as { data: { login: { token: string } } }).data.login.token;
}

async function newestNews(): Promise<{ id: string }> {
  const response = await fetch(backend.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ newsItems(first: 1) { nodes { id } } }' }) });
  return ((await response.json()) as { data: { newsItems: { nodes: { id: string }[] } } }).data.newsItems.nodes[0]!;
}

try {
  const token = await login();
  // Fills the build cache, writes the folder kept up to date, and publishes it once.
  await run('live');
  await publish();
  const rows = { fresh: [] as Measurement[], edited: [] as Measurement[], added: [] as Measurement[], deleted: [] as Measurement[], unchanged: [] as Measurement[] };
  const published: Awaited<ReturnType<typeof publish>>[] = [];
  for (let i = 0; i < RUNS; i++) {
    rows.fresh.push(await run(`fresh-${i}`));
    await updateContent(backend, token, 'NewsItem', (await newestNews()).id, { title: `Edited live, round ${i}` });
    rows.edited.push(await run('live'));
    published.push(await publish());
    const added = await createContent(backend, token, 'NewsItem', { slug: `bench-added-${i}`, title: `Added live, round ${i}`, date: '2099-01-01' });
    rows.added.push(await run('live'));
    await deleteContent(backend, token, 'NewsItem', added.id);
    rows.deleted.push(await run('live'));
    rows.unchanged.push(await run('live'));
  }
  const base = median(rows.fresh.map((m) => m.ms));
  const row = (name: string, runs: Measurement[], target: string): (string | number)[] => {
    const ms = median(runs.map((m) => m.ms));
    return [name, `${(ms / 1000).toFixed(2)} s`, `${((ms / base) * 100).toFixed(1)}%`, target, `${Math.round(Math.max(...runs.map((m) => m.peakMiB)))} MiB`];
  };
  console.log(`\n${PAGES.toLocaleString('en-US')}-page site${SEARCH ? ', with the search index' : ', --no-search'}, medians of ${RUNS} interleaved rounds:`);
  printTable([
    ['build', 'wall', 'of a fresh full build', 'target', 'peak memory'],
    row('fresh full build', rows.fresh, ''),
    row('update in place: one news title edited', rows.edited, '≤ 10%'),
    row('update in place: one news item added', rows.added, '≤ 15%'),
    row('update in place: that item deleted', rows.deleted, '≤ 15%'),
    row('update in place: nothing changed', rows.unchanged, '≤ 5%'),
  ]);
  const p = published[Math.floor(published.length / 2)]!;
  console.log(`\nafter one edited title: ${p.files} files, ${p.bytes} ${p.how}; each round: ${published.map((x) => `${x.files} files, ${x.bytes}`).join('; ')}`);
} finally {
  await backend.close();
  await s3.stop();
  console.log(`\n(outputs left in ${work})`);
}
