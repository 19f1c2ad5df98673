/**
 * Edit to live on the published site with `site live` (docs/live.md):
 *   npm run bench:live [-- --pages 10000 --edits 20 --burst 100 --memory-edits 0 --no-compare --log <file>]
 * The backend at `--scale` pages in its own process, an S3 API server (s3rver, over HTTP) in this one,
 * and `site live --bucket` as a process of its own, its first update publishing the whole site. Then:
 *
 * 1. EDITS edits one after another, of mixed kinds (a title edited, an item added, an item deleted, a
 *    slug changed, an event moved to another day), each announced by a signed webhook call as a CMS
 *    makes it on save. Each is timed from the mutation's answer to the end of the publish that put it in
 *    the bucket (the process's `live in` line; the edited page's object is then read back to check it
 *    holds the edit). p50 and p95 against the targets (1 s and 2 s; 5 s p95 at 100,000 pages).
 * 2. The bucket then against `site build --full` of the same content into a new folder: every file the
 *    full build wrote is in the bucket with the same bytes (`--no-compare` leaves it out).
 * 3. BURST title edits within 10 s, each with its webhook call: how many updates published them, and
 *    the time from the last edit's answer to all of them live (the target: within 10 s).
 * 4. `--memory-edits N` more title edits, the process's resident size after each (and each edit to live, p50 and p95): the peak over the
 *    first 50 against the peak over all (target: within 10%) and against the full build's peak.
 *
 * Exits non-zero when an edit does not go live, the bucket differs from the full build, or a process fails.
 */
import { mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { DEFAULT_EDITOR } from '../backend/auth.ts';
import { signWebhook } from '../cli/serve/live/webhook-signature.ts';
import { getObject, S3_ENV, s3Client, startS3Server } from '../tests/helpers/s3-server.ts';
import { snapshotTree } from '../tests/helpers/tree.ts';
import { createContent, deleteContent, updateContent } from '../tests/helpers/content-edits.ts';
import { startScaledBackend } from './backend.ts';
import { benchArgs, measure, median, percentile, removeAfterwards } from './measure.ts';

const args = benchArgs();
const PAGES = Number(args.get('pages') ?? 10_000);
const EDITS = Number(args.get('edits') ?? 20);
const BURST = Number(args.get('burst') ?? 100);
const MEMORY_EDITS = Number(args.get('memory-edits') ?? 0);
const COMPARE = !args.has('no-compare');
const SITE = join(import.meta.dirname, '../bin/site.js');
const SECRET = 'bench-live-secret/0123456789abcdef0123456789abcdef';
const ENV = { ...S3_ENV, SITE_LIVE_SECRET: SECRET, SOURCE_DATE_EPOCH: '1780000000', NODE_ENV: 'production', CI: 'true' };

const work = await mkdtemp(join(tmpdir(), 'bench-live-publish-'));
const backend = await startScaledBackend(SITE, PAGES);
// The bucket's folder goes with the bench's outputs (removeAfterwards).
const bucketDir = join(work, 's3');
await mkdir(bucketDir);
const s3 = await startS3Server({ bucket: 'site', directory: bucketDir });
const client = s3Client(s3.endpoint);
let failed = false;

/** A GraphQL call to the backend. */
async function gql<T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
  const response = await fetch(backend.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: T; errors?: unknown };
  if (!body.data || body.errors) throw new Error(`GraphQL: ${JSON.stringify(body.errors)}`);
  return body.data;
}

interface LogLine {
  time: string;
  level: string;
  stage: string;
  message: string;
}

/** `site live` in its own process, its JSON log lines collected. */
function startLive(): { child: ChildProcess; lines: LogLine[]; url: Promise<string> } {
  const child = spawn(
    process.execPath,
    [
      SITE,
      'live',
      '--endpoint',
      backend.url,
      '--out',
      join(work, 'out'),
      '--cache-dir',
      join(work, 'cache'),
      '--no-search',
      '--bucket',
      s3.bucket,
      '--endpoint-url',
      s3.endpoint,
      '--port',
      '0',
      '--log-format',
      'json',
      '--verbose',
    ],
    { env: { ...process.env, ...ENV } },
  );
  const lines: LogLine[] = [];
  let buffer = '';
  const take = (d: Buffer): void => {
    buffer += d.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const part of parts) {
      if (!part.startsWith('{')) {
        console.error(part);
        continue;
      }
      const line = JSON.parse(part) as LogLine;
      lines.push(line);
      if (line.level === 'warn' || line.level === 'error') console.error(`[live] ${line.stage}: ${line.message}`);
    }
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) {
      failed = true;
      console.error(`site live exited with ${code}`);
    }
  });
  const url = (async () => {
    for (;;) {
      const found = lines.map((l) => /at (http:\/\/127\.0\.0\.1:\d+)$/.exec(l.message)?.[1]).find(Boolean);
      if (found) return found;
      if (child.exitCode !== null) throw new Error('site live ended before it listened');
      await sleep(50);
    }
  })();
  return { child, lines, url };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The time (ms since the epoch) of the first `live in` line logged after `after`, waiting up to `timeoutMs`. */
async function liveAfter(lines: LogLine[], after: number, timeoutMs = 120_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const line = lines.find((l) => l.stage === 'live' && l.message.startsWith('live in ') && Date.parse(l.time) >= after);
    if (line) return Date.parse(line.time);
    if (Date.now() > until) throw new Error(`nothing went live within ${timeoutMs} ms`);
    await sleep(5);
  }
}

/** Waits until no update runs or waits (the process's metrics). */
async function idle(url: string): Promise<void> {
  for (;;) {
    const text = await (await fetch(`${url}/metrics`)).text();
    if (/^site_live_updating 0$/m.test(text) && /^site_live_queue_depth 0$/m.test(text)) return;
    await sleep(50);
  }
}

async function metric(url: string, name: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${name} `))
      ?.split(' ')[1] ?? NaN,
  );
}

/** A CMS's webhook call, signed as docs/live.md says. */
async function webhook(url: string, body: string): Promise<void> {
  const ts = Math.floor(Date.now() / 1000);
  const response = await fetch(`${url}/webhook`, {
    method: 'POST',
    body,
    headers: { 'x-site-timestamp': String(ts), 'x-site-signature': signWebhook(SECRET, ts, body) },
  });
  if (response.status !== 202) throw new Error(`the webhook answered ${response.status}`);
}

async function bucketHas(key: string, text: string | null): Promise<boolean> {
  const object = await getObject(client, s3.bucket, key);
  return text === null ? object === null : !!object?.body.toString('utf8').includes(text);
}

/** Resident and peak resident size of a process, MiB. */
async function memoryOf(pid: number): Promise<{ rss: number; hwm: number }> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string): number => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, hwm: kib('VmHWM') / 1024 };
}

const fmt = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

try {
  const started = Date.now();
  const live = startLive();
  const url = await live.url;
  // The first update is a full build and a publish of every file: 565-600 s at 100,000 pages on this machine.
  await liveAfter(live.lines, started, Math.max(600_000, PAGES * 15));
  await idle(url);
  console.log(`site live published the ${PAGES}-page site in ${fmt(Date.now() - started)} (its first update, a full build)`);
  const token = (
    await gql<{ login: { token: string } }>(
      'mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token } }',
      { email: DEFAULT_EDITOR.email, password: DEFAULT_EDITOR.password },
    )
  ).login.token;
  const { newsItems, events } = await gql<{
    newsItems: { nodes: { id: string; slug: string }[] };
    events: { nodes: { id: string; slug: string; startsAt: string; category: { slug: string } }[] };
  }>(
    `{ newsItems(first: ${EDITS + BURST + 10}) { nodes { id slug } } events(first: ${EDITS}) { nodes { id slug startsAt category { slug } } } }`,
  );
  const backendOf = { url: backend.url };

  // 1. Edits of mixed kinds, one after another.
  const kinds = ['title edited', 'item added', 'item deleted', 'slug changed', 'event moved'] as const;
  const latencies: number[] = [];
  const splits: { build: number; publish: number }[] = [];
  const byKind = new Map<string, number[]>();
  let added: { id: string; slug: string } | null = null;
  for (let i = 0; i < EDITS; i++) {
    const kind = kinds[i % kinds.length]!;
    const news = newsItems.nodes[i]!;
    const event = events.nodes[i % events.nodes.length]!;
    const mark = `Live edit ${i} ${Date.now()}`;
    let check: [key: string, text: string | null];
    const edited = await (async () => {
      switch (kind) {
        case 'title edited':
          check = [`news/${news.slug}/index.html`, mark];
          return updateContent(backendOf, token, 'NewsItem', news.id, { title: mark });
        case 'item added': {
          const item = await createContent(backendOf, token, 'NewsItem', { slug: `live-added-${i}`, title: mark });
          added = { id: item.id, slug: item.slug! };
          check = [`news/${item.slug}/index.html`, mark];
          return item;
        }
        case 'item deleted': {
          const item = added ?? news;
          added = null;
          // The newest item leaves the news list's first page: that page is what changes.
          check = ['news/index.html', null];
          return deleteContent(backendOf, token, 'NewsItem', item.id);
        }
        case 'slug changed':
          check = [`news/${news.slug}-moved-${i}/index.html`, news.slug];
          return updateContent(backendOf, token, 'NewsItem', news.id, { slug: `${news.slug}-moved-${i}` });
        case 'event moved': {
          const day = new Date(Date.parse(event.startsAt) + 86_400_000 * (i + 1)).toISOString();
          check = [`events/${event.category.slug}/${event.slug}/index.html`, day.slice(0, 10)];
          return updateContent(backendOf, token, 'Event', event.id, { startsAt: day });
        }
      }
    })();
    const t0 = Date.now();
    await webhook(url, JSON.stringify({ type: edited.type, id: edited.id }));
    const at = await liveAfter(live.lines, t0);
    await idle(url);
    const [key, text] = check!;
    if (text !== null && !(await bucketHas(key, text))) {
      failed = true;
      console.error(`${kind}: ${key} in the bucket does not hold the edit`);
    }
    latencies.push(at - t0);
    byKind.set(kind, [...(byKind.get(kind) ?? []), at - t0]);
    const since = live.lines.filter((l) => Date.parse(l.time) >= t0);
    const seconds = (stage: string, pattern: RegExp): number =>
      since
        .filter((l) => l.stage === stage)
        .map((l) => Number(pattern.exec(l.message)?.[1] ?? NaN))
        .filter(Number.isFinite)
        .reduce((a, b) => a + b, 0);
    splits.push({ build: seconds('build', /^wrote .* in ([\d.]+) s/), publish: seconds('publish', /^published .* in ([\d.]+) s/) });
  }
  console.log(
    `\n1. ${EDITS} edits, mutation's answer to the publish that put it in the bucket (webhook on save; the feed polled every 1 s too):`,
  );
  for (const [kind, ms] of byKind) console.log(`   ${kind.padEnd(14)} ${ms.map(fmt).join(', ')}`);
  console.log(
    `   of which, medians: the update in place ${median(splits.map((x) => x.build)).toFixed(2)} s, the publish ${median(splits.map((x) => x.publish)).toFixed(2)} s`,
  );
  const p50 = percentile(latencies, 0.5);
  const p95 = percentile(latencies, 0.95);
  const p95Goal = PAGES >= 100_000 ? 5_000 : 2_000;
  console.log(
    `   p50 ${fmt(p50)} (target ≤ 1 s: ${p50 <= 1_000 ? 'holds' : 'missed'}), p95 ${fmt(p95)} (target ≤ ${fmt(p95Goal)}: ${p95 <= p95Goal ? 'holds' : 'missed'})`,
  );

  // 2. The bucket against a full build of the same content.
  let fullPeak = NaN;
  if (COMPARE) {
    const fresh = join(work, 'full');
    const full = await measure(
      process.execPath,
      [
        SITE,
        'build',
        '--full',
        '--no-search',
        '--no-report',
        '--quiet',
        '--endpoint',
        backend.url,
        '--out',
        fresh,
        '--cache-dir',
        join(work, 'full-cache'),
      ],
      { env: ENV },
    );
    if (full.code !== 0) throw new Error(`the full build failed:\n${full.stderr}`);
    fullPeak = full.peakMiB;
    const files = Object.keys(await snapshotTree(fresh));
    const limit = pLimit(16);
    const differ = (
      await Promise.all(
        files.map((key) =>
          limit(async () => {
            const stored = await getObject(client, s3.bucket, key);
            return stored && stored.body.equals(await readFile(join(fresh, key))) ? null : key;
          }),
        ),
      )
    ).filter((k): k is string => k !== null);
    if (differ.length > 0) failed = true;
    console.log(
      `\n2. the bucket after the edits against site build --full of the same content (${files.length} files, ${fmt(full.ms)}, peak ${Math.round(full.peakMiB)} MiB): ${differ.length === 0 ? 'byte for byte the same' : `${differ.length} differ: ${differ.slice(0, 5).join(', ')}`}`,
    );
  }

  // 3. A burst of title edits within 10 s.
  if (BURST > 0) {
    const before = await metric(url, 'site_live_updates_total{result="published"}');
    const burst = newsItems.nodes.slice(EDITS, EDITS + BURST);
    const spacing = Math.min(100, 10_000 / BURST);
    const titles: [string, string][] = [];
    const burstStart = Date.now();
    for (const [i, item] of burst.entries()) {
      const title = `Burst edit ${i} ${Date.now()}`;
      await updateContent(backendOf, token, 'NewsItem', item.id, { title });
      void webhook(url, JSON.stringify({ type: 'NewsItem', id: item.id })).catch(() => undefined);
      titles.push([`news/${item.slug}/index.html`, title]);
      await sleep(Math.max(0, burstStart + (i + 1) * spacing - Date.now()));
    }
    const lastAnswer = Date.now();
    await sleep(200);
    await idle(url);
    const lastLive = Math.max(...live.lines.filter((l) => l.message.startsWith('live in ')).map((l) => Date.parse(l.time)));
    const missing = [];
    for (const [key, title] of titles) if (!(await bucketHas(key, title))) missing.push(key);
    if (missing.length > 0) failed = true;
    const updates = (await metric(url, 'site_live_updates_total{result="published"}')) - before;
    console.log(
      `\n3. a burst of ${BURST} title edits in ${fmt(lastAnswer - burstStart)}: published in ${updates} updates; all live ${fmt(lastLive - lastAnswer)} after the last edit's answer (target ≤ 10 s: ${lastLive - lastAnswer <= 10_000 ? 'holds' : 'missed'})${missing.length ? `; ${missing.length} not live: ${missing.slice(0, 3).join(', ')}` : ''}`,
    );
  }

  // 4. Memory over many edits: the process's resident size sampled every 50 ms while they go live.
  if (MEMORY_EDITS > 0) {
    const pid = live.child.pid!;
    let peak = 0;
    let peak50 = 0;
    const after: number[] = [];
    const lags: number[] = [];
    const sampler = setInterval(() => {
      void memoryOf(pid)
        .then((m) => (peak = Math.max(peak, m.rss)))
        .catch(() => undefined);
    }, 50);
    for (let i = 0; i < MEMORY_EDITS; i++) {
      const item = newsItems.nodes[i % newsItems.nodes.length]!;
      await updateContent(backendOf, token, 'NewsItem', item.id, { title: `Memory edit ${i}` });
      const t0 = Date.now();
      await webhook(url, JSON.stringify({ type: 'NewsItem', id: item.id }));
      lags.push((await liveAfter(live.lines, t0)) - t0);
      await idle(url);
      after.push((await memoryOf(pid)).rss);
      if (i === Math.min(49, MEMORY_EDITS - 1)) peak50 = peak;
    }
    clearInterval(sampler);
    console.log(
      `\n4. ${MEMORY_EDITS} title edits: resident ${Math.round(after[0]!)} MiB after the first, ${Math.round(median(after))} MiB median, ${Math.round(after.at(-1)!)} MiB after the last; peak ${Math.round(peak50)} MiB over the first 50, ${Math.round(peak)} MiB over all (${((peak / peak50 - 1) * 100).toFixed(1)}%; target ≤ 10%)${Number.isFinite(fullPeak) ? `, a full build's peak ${Math.round(fullPeak)} MiB (target: below it)` : ''}`,
    );
    console.log(`   their edit to live: p50 ${fmt(percentile(lags, 0.5))}, p95 ${fmt(percentile(lags, 0.95))}`);
  }
  live.child.kill('SIGTERM');
  await new Promise((r) => live.child.once('exit', r));
  if (args.has('log')) {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(args.get('log')!, live.lines.map((l) => `${l.time} [${l.stage}] ${l.message}`).join('\n') + '\n');
  }
} catch (error) {
  failed = true;
  console.error(error);
} finally {
  client.destroy();
  await s3.stop();
  await backend.close();
  console.log(removeAfterwards(work));
}
process.exit(failed ? 1 : 0);
