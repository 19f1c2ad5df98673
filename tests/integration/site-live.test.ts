import type { S3Client } from '@aws-sdk/client-s3';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { signWebhook } from '../../cli/serve/live/webhook-signature.ts';
import { loginToken } from '../backend/client.ts';
import { buildInProcess } from '../helpers/build-in-process.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';
import { ROOT, runCli, SITE_BIN } from '../helpers/cli.ts';
import { createContent, deleteContent, updateContent } from '../helpers/content-edits.ts';
import { getObject, S3_ENV, s3Client, startS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { snapshotTree } from '../helpers/tree.ts';

/**
 * `site live` (docs/live.md) as a process, against the embedded backend as a server and an S3 API
 * server: edits made through the backend's mutations go live in the bucket, and the bucket's current
 * build is then byte for byte what a full build of the same content gives; the webhook takes only
 * signed, recent, new calls; a killed process converges when started again; a storage outage delays an
 * update but never publishes half of it; and a second process for the same folder is refused.
 */

const SECRET = 'live-test-secret/0123456789abcdef0123456789abcdef';
const ENV = { ...S3_ENV, SITE_LIVE_SECRET: SECRET, SOURCE_DATE_EPOCH: '1780000000' };

let root: string;
let backend: ContentServer;
let s3: S3TestServer;
let client: S3Client;
let token: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-live-'));
  await seedBundle(join(root, 'cache'));
  await seedBundle(join(root, 'full-cache'));
  backend = await startContentServer({ now: () => new Date('2026-06-01T12:00:00Z') });
  token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
  s3 = await startS3Server({ bucket: 'site' });
  client = s3Client(s3.endpoint);
}, 240_000);

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
  await backend?.close();
  await rm(root, { recursive: true, force: true });
});

interface Live {
  url: string;
  child: ChildProcess;
  lines: { level: string; stage: string; message: string }[];
  exited: Promise<number | null>;
  metric(name: string, labels?: string): Promise<number>;
  /** Resolves once `n` updates have succeeded (published or unchanged) and none runs or waits. */
  settled(n: number, timeoutMs?: number): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** `site live`'s arguments for the shared output folder, cache and bucket. */
const liveArgs = (...extra: string[]): string[] => [
  'live',
  '--endpoint',
  backend.url,
  '--out',
  join(root, 'out'),
  '--cache-dir',
  join(root, 'cache'),
  '--no-search',
  '--bucket',
  s3.bucket,
  '--endpoint-url',
  s3.endpoint,
  '--port',
  '0',
  '--poll-interval',
  '200',
  '--log-format',
  'json',
  ...extra,
];

/** Starts `site live` and waits for its server. */
async function startLive(...extra: string[]): Promise<Live> {
  const child = spawn(process.execPath, [SITE_BIN, ...liveArgs(...extra)], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...ENV },
  });
  const lines: Live['lines'] = [];
  let buffer = '';
  let stderr = '';
  const onData = (d: Buffer): void => {
    buffer += d.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    for (const part of parts)
      if (part.trim())
        lines.push(part.startsWith('{') ? (JSON.parse(part) as Live['lines'][number]) : { level: 'text', stage: '', message: part });
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d.toString();
    onData(d);
  });
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const url = await waitFor(
    () => lines.map((l) => /at (http:\/\/127\.0\.0\.1:\d+)$/.exec(l.message)?.[1]).find(Boolean),
    20_000,
    () => `site live did not start: ${stderr}`,
  );
  const metric = async (name: string, labels = ''): Promise<number> => {
    const text = await (await fetch(`${url}/metrics`)).text();
    const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
    return line ? Number(line.split(' ')[1]) : NaN;
  };
  const succeeded = async (): Promise<number> =>
    (await metric('site_live_updates_total', '{result="published"}')) + (await metric('site_live_updates_total', '{result="unchanged"}'));
  return {
    url,
    child,
    lines,
    exited,
    metric,
    async settled(n, timeoutMs = 60_000) {
      await waitFor(
        async () => (await succeeded()) >= n && (await metric('site_live_updating')) === 0 && (await metric('site_live_queue_depth')) === 0,
        timeoutMs,
        () => `no update ${n} within ${timeoutMs} ms:\n${lines.map((l) => `[${l.stage}] ${l.message}`).join('\n')}`,
      );
    },
    async stop(signal = 'SIGTERM') {
      child.kill(signal);
      return exited;
    },
  };
}

async function waitFor<T>(check: () => T | Promise<T>, timeoutMs: number, message: () => string): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(message());
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every file of a full build of the backend's content now is in the bucket with the same bytes. */
async function expectBucketIsFullBuild(step: string): Promise<void> {
  const fresh = join(root, `full-${step.replace(/\W+/g, '-')}`);
  await buildInProcess(
    { endpoint: backend.url, outDir: fresh, cacheDir: join(root, 'full-cache'), full: true, search: false },
    { SOURCE_DATE_EPOCH: ENV.SOURCE_DATE_EPOCH },
  );
  const files = Object.keys(await snapshotTree(fresh));
  const differ: string[] = [];
  for (const key of files) {
    const stored = await getObject(client, s3.bucket, key);
    if (!stored || !stored.body.equals(await readFile(join(fresh, key)))) differ.push(key);
  }
  expect(differ, `${step}: files of a full build the bucket lacks or holds otherwise`).toEqual([]);
  await rm(fresh, { recursive: true, force: true });
}

describe('site live', () => {
  let live: Live;
  let updates = 0;

  beforeAll(async () => {
    live = await startLive();
    await live.settled(++updates, 120_000);
  }, 180_000);

  afterAll(async () => {
    await live?.stop('SIGKILL');
  });

  it('publishes the site on start, as a full build publishes it', async () => {
    expect(await live.metric('site_live_last_published_timestamp_seconds')).toBeGreaterThan(0);
    const health = (await (await fetch(`${live.url}/health`)).json()) as { status: string };
    expect(health.status).toBe('ok');
    // No state for the folder yet: every page rendered in a `site build` process of its own.
    expect(live.lines.some((l) => l.stage === 'live' && /every page renders, in a process of its own/.test(l.message))).toBe(true);
    await expectBucketIsFullBuild('start');
  }, 120_000);

  it('puts each kind of edit live, the bucket then byte for byte a full build', async () => {
    const edits: [string, () => Promise<unknown>][] = [
      ['title edited', () => updateContent(backend, token, 'NewsItem', 'news-3', { title: 'Live title edit' })],
      ['item added', () => createContent(backend, token, 'NewsItem', { title: 'Added live', slug: 'added-live', date: '2026-05-30' })],
      ['slug changed', () => updateContent(backend, token, 'NewsItem', 'news-4', { slug: 'a-new-slug-for-news-4' })],
      ['event moved to another day', () => updateContent(backend, token, 'Event', 'event-2', { startsAt: '2026-07-14T10:00:00Z' })],
      ['item deleted', () => deleteContent(backend, token, 'NewsItem', 'news-5')],
    ];
    // Each update goes on from the state the one before saved (after its publish): in place, never every page again.
    const inPlace = (): number => live.lines.filter((l) => l.stage === 'build' && l.message.startsWith('updated in place:')).length;
    for (const [what, edit] of edits) {
      const published = await live.metric('site_live_updates_total', '{result="published"}');
      const before = inPlace();
      await edit();
      await waitFor(
        async () => (await live.metric('site_live_updates_total', '{result="published"}')) > published,
        60_000,
        () => `${what}: not published`,
      );
      await live.settled(0);
      expect(inPlace(), `${what}: not updated in place`).toBeGreaterThan(before);
      await expectBucketIsFullBuild(what);
    }
    // Edit to live, as the process measured it: from the feed's answer to latest.json in the bucket.
    expect(await live.metric('site_live_lag_seconds_count')).toBeGreaterThanOrEqual(edits.length);
  }, 600_000);

  it('takes a signed, recent, new webhook call as a change to look for; refuses a wrong signature, an old timestamp and a replay', async () => {
    const body = JSON.stringify({ type: 'NewsItem', id: 'news-3' });
    const post = (timestamp: number | null, signature: string | null): Promise<Response> =>
      fetch(`${live.url}/webhook`, {
        method: 'POST',
        body,
        headers: {
          'content-type': 'application/json',
          ...(timestamp === null ? {} : { 'x-site-timestamp': String(timestamp) }),
          ...(signature === null ? {} : { 'x-site-signature': signature }),
        },
      });
    const now = Math.floor(Date.now() / 1000);
    const unchanged = await live.metric('site_live_updates_total', '{result="unchanged"}');
    expect((await post(now, signWebhook('another secret, of 32 characters or more', now, body))).status).toBe(401);
    expect((await post(now, signWebhook(SECRET, now, `${body} `))).status).toBe(401);
    // Half a minute outside the 5-minute window: `now` is this process's second, and the server reads its
    // clock later (a second boundary between the two made now + 301 one inside; the exact bounds are in
    // tests/unit/cli/serve/live/webhook-signature.test.ts, on a fixed clock).
    expect((await post(now - 330, signWebhook(SECRET, now - 330, body))).status).toBe(401);
    expect((await post(now + 330, signWebhook(SECRET, now + 330, body))).status).toBe(401);
    expect((await post(null, null)).status).toBe(401);
    expect((await post(now, 'sha256=' + '0'.repeat(64))).status).toBe(401);
    // No refused call starts an update.
    await new Promise((r) => setTimeout(r, 600));
    expect(await live.metric('site_live_updates_total', '{result="unchanged"}')).toBe(unchanged);
    expect(await live.metric('site_live_webhook_requests_total', '{outcome="refused"}')).toBe(6);

    const signature = signWebhook(SECRET, now, body);
    const taken = await post(now, signature);
    expect(taken.status).toBe(202);
    // Nothing changed in the backend: the update it starts finds nothing to publish.
    await waitFor(
      async () => (await live.metric('site_live_updates_total', '{result="unchanged"}')) > unchanged,
      30_000,
      () => 'the webhook started no update',
    );
    expect((await post(now, signature)).status).toBe(409);
    expect(await live.metric('site_live_webhook_requests_total', '{outcome="taken"}')).toBe(1);
    expect(live.lines.filter((l) => l.level === 'warn' && /refused a webhook call from 127\.0\.0\.1/.test(l.message))).toHaveLength(7);
  }, 60_000);

  it('refuses a second site live for the same folder, naming the one that runs', async () => {
    const second = await runCli(liveArgs(), { env: ENV, timeoutMs: 60_000 });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/LiveLocked/);
    expect(second.stderr).toContain(`process ${live.child.pid} on`);
  }, 60_000);

  it('waits out a storage outage: nothing of the update is named live until every file is up, then it converges', async () => {
    const before = s3.requests.length;
    const failures = await live.metric('site_live_failures_total', '{stage="publish"}');
    s3.stopAfterPuts(2);
    await updateContent(backend, token, 'NewsItem', 'news-6', { title: 'Edited while the storage is down' });
    await s3.stopped;
    await waitFor(
      async () => (await live.metric('site_live_failures_total', '{stage="publish"}')) > failures,
      60_000,
      () => 'the outage was not seen',
    );
    const health = await fetch(`${live.url}/health`);
    expect(health.status).toBe(503);
    // The stage only: the storage's error, which names the bucket and its address, goes to the log.
    const said = await health.text();
    expect(JSON.parse(said)).toMatchObject({ status: 'failing', stage: 'publish' });
    expect(said).not.toContain(String(s3.port));
    // The attempt wrote files, never latest.json or the records that name the build's files.
    const puts = s3.requests.slice(before).filter((r) => r.method === 'PUT' && r.status === 200);
    expect(puts.length).toBeGreaterThan(0);
    expect(puts.filter((r) => r.key.startsWith('_assets/builds/'))).toEqual(
      puts.filter((r) => r.key.startsWith('_assets/builds/pending/')),
    );
    s3 = await startS3Server({ bucket: s3.bucket, directory: s3.directory, port: s3.port });
    const published = await live.metric('site_live_updates_total', '{result="published"}');
    await waitFor(
      async () => (await live.metric('site_live_updates_total', '{result="published"}')) > published,
      60_000,
      () => `not published once the storage was back:\n${live.lines.map((l) => `[${l.stage}] ${l.message}`).join('\n')}`,
    );
    expect((await fetch(`${live.url}/health`)).status).toBe(200);
    await expectBucketIsFullBuild('after the outage');
  }, 180_000);

  it('on SIGTERM finishes the running update, then ends', async () => {
    const at = live.lines.length;
    await updateContent(backend, token, 'NewsItem', 'news-7', { title: 'Edited as the process is told to stop' });
    await waitFor(
      () => live.lines.slice(at).some((l) => l.stage === 'live' && l.message.startsWith('updating')),
      30_000,
      () => 'no update started',
    );
    expect(await live.stop('SIGTERM')).toBe(0);
    const after = live.lines.slice(at).map((l) => l.message);
    expect(after.some((m) => m.startsWith('live in '))).toBe(true);
    expect(after.at(-1)).toBe('stopped');
    await expectBucketIsFullBuild('after SIGTERM');
  }, 120_000);

  it('killed mid-publish, converges when started again', async () => {
    live = await startLive();
    await live.settled(1, 60_000);
    const at = live.lines.length;
    await updateContent(backend, token, 'NewsItem', 'news-8', { title: 'Edited before the process is killed' });
    await waitFor(
      () => live.lines.slice(at).some((l) => l.stage === 'publish'),
      30_000,
      () => 'no publish started',
    );
    await live.stop('SIGKILL');
    await updateContent(backend, token, 'NewsItem', 'news-9', { title: 'Edited while no process runs' });
    live = await startLive();
    await live.settled(1, 60_000);
    await expectBucketIsFullBuild('after a kill');
  }, 180_000);
});

describe('site live without a bucket, and when the code on disk changes under it', () => {
  it('keeps the folder up to date; ends without building with the mixed code, and says why', async () => {
    const { startLive: startInProcess } = await import('../../cli/serve/live/live.ts');
    const { resolveConfig } = await import('../../cli/config/config.ts');
    const { createMemoryLogger } = await import('../../cli/terminal/logger.ts');
    const cacheDir = await seedBundle(join(root, 'code-cache'));
    const config = resolveConfig(
      { endpoint: backend.url, outDir: join(root, 'code-out'), cacheDir, search: false, report: false, logLevel: 'info' },
      {},
      ROOT,
    );
    const logger = createMemoryLogger();
    let code = 'loaded';
    const stops: string[] = [];
    const session = await startInProcess({
      config,
      publish: null,
      host: '127.0.0.1',
      port: 0,
      pollIntervalMs: 100,
      webhookSecret: SECRET,
      logger,
      codeFingerprint: async () => code,
      onStop: (why) => stops.push(why),
    });
    await session.idle();
    const builds = (): number => logger.lines.filter((l) => l.startsWith('[build] wrote ')).length;
    expect(builds()).toBe(1);
    // Without a bucket, the folder is the site: an edit reaches it.
    const { slug } = await updateContent(backend, token, 'NewsItem', 'news-10', { title: 'Edited for the folder' });
    const page = join(root, 'code-out', 'news', slug!, 'index.html');
    await waitFor(
      async () => (await readFile(page, 'utf8').catch(() => '')).includes('Edited for the folder'),
      30_000,
      () => logger.lines.join('\n'),
    );
    await session.idle();
    expect(builds()).toBe(2);
    code = 'deployed';
    const now = Math.floor(Date.now() / 1000);
    const response = await fetch(`${session.url}/webhook`, {
      method: 'POST',
      body: '{}',
      headers: { 'x-site-timestamp': String(now), 'x-site-signature': signWebhook(SECRET, now, '{}') },
    });
    expect(response.status).toBe(202);
    await waitFor(
      () => stops.length > 0,
      30_000,
      () => logger.lines.join('\n'),
    );
    expect(stops).toEqual(['code changed']);
    expect(builds()).toBe(2);
    expect(logger.lines.some((l) => /changed since this process loaded them: it ends without building/.test(l))).toBe(true);
    await session.close();
  }, 120_000);
});

describe('site live when the backend fails', () => {
  it('keeps the previous folder, says it is failing, retries, and converges once the backend answers again', async () => {
    const { startLive: startInProcess } = await import('../../cli/serve/live/live.ts');
    const { resolveConfig } = await import('../../cli/config/config.ts');
    const { createMemoryLogger } = await import('../../cli/terminal/logger.ts');
    const { startFaultServer } = await import('../helpers/fault-server.ts');
    const faulty = await startFaultServer({ backend: { now: () => new Date('2026-06-01T12:00:00Z') } });
    onTestFinished(() => faulty.close());
    const editor = await loginToken({ url: faulty.url } as ContentServer, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    const cacheDir = await seedBundle(join(root, 'fault-cache'));
    const outDir = join(root, 'fault-out');
    const config = resolveConfig(
      { endpoint: faulty.url, outDir, cacheDir, search: false, report: false, logLevel: 'info', retries: 1, retryDelayMs: 50 },
      {},
      ROOT,
    );
    const logger = createMemoryLogger();
    const session = await startInProcess({
      config,
      publish: null,
      host: '127.0.0.1',
      port: 0,
      pollIntervalMs: 100,
      webhookSecret: null,
      retryMs: 200,
      maxRetryMs: 400,
      logger,
    });
    onTestFinished(() => session.close());
    await session.idle();
    const { slug } = await updateContent({ url: faulty.url }, editor, 'NewsItem', 'news-11', { title: 'Edited during an outage' });
    const page = join(outDir, 'news', slug!, 'index.html');
    const before = await readFile(page, 'utf8');
    // Every query but the change feed's fails: the edit is noticed, and its update cannot be built.
    faulty.setRules([{ operation: /^(?!Changes$)/, fault: { kind: 'status', status: 503 } }]);
    await waitFor(
      () => session.metrics.failures.build >= 2,
      30_000,
      () => logger.lines.join('\n'),
    );
    const health = await fetch(`${session.url}/health`);
    expect(health.status).toBe(503);
    // The stage only: the error, which names the backend's address, goes to the log.
    const said = await health.text();
    expect(JSON.parse(said)).toMatchObject({ status: 'failing', stage: 'backend' });
    expect(said).not.toContain(new URL(faulty.url).port);
    expect(logger.lines.some((l) => l.includes(new URL(faulty.url).port) && /the update failed/.test(l))).toBe(true);
    expect(await readFile(page, 'utf8')).toBe(before);
    expect(logger.lines.some((l) => /the update failed .*Trying again in/.test(l))).toBe(true);
    faulty.setRules([]);
    await waitFor(
      async () => (await readFile(page, 'utf8')).includes('Edited during an outage'),
      30_000,
      () => logger.lines.join('\n'),
    );
    await session.idle();
    expect((await fetch(`${session.url}/health`)).status).toBe(200);
  }, 120_000);
});

describe("site live's build in a process of its own, when it fails", () => {
  /** `site live` in this process, its full build the node `script` in a process of its own, until that build has failed once; its log. */
  async function failingChildBuild(name: string, script: string): Promise<{ lines: string[] }> {
    const { startLive: startInProcess } = await import('../../cli/serve/live/live.ts');
    const { resolveConfig } = await import('../../cli/config/config.ts');
    const { createMemoryLogger } = await import('../../cli/terminal/logger.ts');
    const config = resolveConfig(
      {
        endpoint: backend.url,
        outDir: join(root, `${name}-out`),
        cacheDir: join(root, `${name}-cache`),
        search: false,
        report: false,
        logLevel: 'info',
      },
      {},
      ROOT,
    );
    const logger = createMemoryLogger();
    const session = await startInProcess({
      config,
      publish: null,
      host: '127.0.0.1',
      port: 0,
      pollIntervalMs: 0,
      webhookSecret: null,
      retryMs: 60_000,
      logger,
      childBuild: [process.execPath, '-e', script],
    });
    onTestFinished(() => session.close());
    await waitFor(
      () => session.metrics.updates.failed > 0,
      30_000,
      () => logger.lines.slice(-5).join('\n'),
    );
    return logger;
  }

  it('gets the endpoint, and not the webhook secret, the signing key or the storage credentials it never uses', async () => {
    const secrets = {
      SITE_LIVE_SECRET: 's'.repeat(40),
      SITE_PUBLISH_KEY: 'k'.repeat(44),
      AWS_SECRET_ACCESS_KEY: 'aws-secret',
      AWS_ACCESS_KEY_ID: 'aws-id',
    };
    for (const [name, value] of Object.entries(secrets)) vi.stubEnv(name, value);
    onTestFinished(() => void vi.unstubAllEnvs());
    // The "build" says which of these it was given, and fails.
    const names = ['GRAPHQL_ENDPOINT', ...Object.keys(secrets), 'PATH'];
    const script = `process.stderr.write('given: ' + ${JSON.stringify(names)}.filter((n) => process.env[n]).join(' ') + '\\n'); process.exitCode = 1;`;
    const logger = await failingChildBuild('env', script);
    expect(logger.lines).toContain('[build] warning: given: GRAPHQL_ENDPOINT PATH');
  }, 60_000);

  it('logs its output line by line as it comes, and names its last lines in the error', async () => {
    // A build that writes 8 MB of warnings, a line in two parts, its last words, and fails.
    const script = [
      "const noise = 'noise ' + 'x'.repeat(90) + '\\n';",
      'for (let i = 0; i < 80000; i++) process.stderr.write(noise);',
      "process.stderr.write('Error: half');",
      "setTimeout(() => { process.stderr.write(' of a line\\nthe last words\\n'); process.exitCode = 1; }, 100);",
    ].join('\n');
    const logger = await failingChildBuild('noisy', script);
    // Each line once, whole, as the memory logger writes a warning.
    const noise = `[build] warning: noise ${'x'.repeat(90)}`;
    expect(logger.lines.filter((l) => l === noise)).toHaveLength(80_000);
    expect(logger.lines.filter((l) => l.startsWith('[build] ') && l !== noise)).toEqual([
      '[build] warning: Error: half of a line',
      '[build] warning: the last words',
    ]);
    expect(logger.lines.some((l) => /the update failed \(.*failed: noise x+ \/ Error: half of a line \/ the last words\.\)/.test(l))).toBe(
      true,
    );
  }, 60_000);
});

describe('site live ended while a build runs in a process of its own', () => {
  /**
   * `site live` for a fresh folder (so its first update is a build in a process of its own) against a
   * backend whose every query hangs: the build takes the output's lock and waits. Returns the live
   * process, the build's process id (from the lock, which names it), its output so far and its exit.
   */
  async function liveWithHangingBuild(name: string) {
    const { startFaultServer } = await import('../helpers/fault-server.ts');
    const faulty = await startFaultServer({ backend: { now: () => new Date('2026-06-01T12:00:00Z') } });
    onTestFinished(() => faulty.close());
    faulty.setRules([{ operation: '*', fault: { kind: 'hang' } }]);
    const outDir = join(root, `${name}-out`);
    const cacheDir = await seedBundle(join(root, `${name}-cache`));
    const child = spawn(
      process.execPath,
      [
        SITE_BIN,
        'live',
        '--endpoint',
        faulty.url,
        '--out',
        outDir,
        '--cache-dir',
        cacheDir,
        '--no-search',
        '--port',
        '0',
        '--poll-interval',
        '0',
      ],
      { cwd: ROOT, env: { ...process.env, NODE_ENV: 'production', SOURCE_DATE_EPOCH: '1780000000' } },
    );
    const out = { text: '' };
    child.stdout!.on('data', (d: Buffer) => (out.text += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out.text += d.toString()));
    const exited = new Promise<number | null>((ok) => child.once('exit', (code, signal) => ok(code ?? (signal ? -1 : null))));
    onTestFinished(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
    // The build's lock names its process: not this one's child, but the build it started.
    const buildPid = await waitFor(
      async () => {
        const owner = await readFile(`${outDir}.lock`, 'utf8').catch(() => null);
        return owner ? (JSON.parse(owner) as { pid: number }).pid : null;
      },
      30_000,
      () => `the build never took the output's lock:\n${out.text}`,
    );
    onTestFinished(() => {
      if (isRunning(buildPid)) process.kill(buildPid, 'SIGKILL');
    });
    expect(buildPid).not.toBe(child.pid);
    return { child, buildPid, out, exited, outDir };
  }

  async function expectBuildEndsAndFolderIsFree(buildPid: number, outDir: string, output: () => string): Promise<void> {
    const { lockOutput } = await import('../../cli/output/lock.ts');
    await waitFor(
      () => !isRunning(buildPid),
      5_000,
      () => `the build (process ${buildPid}) still runs after site live ended:\n${output()}`,
    );
    // The folder's lock is free: the next build takes it (a lock whose process has gone is taken over).
    const lock = await lockOutput(outDir);
    await lock.release();
  }

  it('told twice to stop, ends that build with it, so the output folder is free for the next process', async () => {
    const { child, buildPid, out, exited, outDir } = await liveWithHangingBuild('twice');
    child.kill('SIGTERM');
    await waitFor(
      () => out.text.includes('the running update finishes first'),
      10_000,
      () => `the first signal was not taken:\n${out.text}`,
    );
    // The first signal waits for the update: the build goes on.
    expect(isRunning(buildPid)).toBe(true);
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    await waitFor(
      () => !isRunning(buildPid),
      5_000,
      () => `the build (process ${buildPid}) still runs after site live ended:\n${out.text}`,
    );
    // Ended through its input pipe, not killed: its lock is released, not left for the next build to find stale.
    expect(existsSync(`${outDir}.lock`)).toBe(false);
    await expectBuildEndsAndFolderIsFree(buildPid, outDir, () => out.text);
  }, 90_000);

  it('killed with SIGKILL (no handler of its own runs), the build ends too: its input pipe closed', async () => {
    const { child, buildPid, out, exited, outDir } = await liveWithHangingBuild('killed');
    child.kill('SIGKILL');
    expect(await exited).toBe(-1);
    await waitFor(
      () => !isRunning(buildPid),
      5_000,
      () => `the build (process ${buildPid}) still runs after site live was killed:\n${out.text}`,
    );
    // It ended on its own, releasing its lock (not left for the next build to find stale).
    expect(existsSync(`${outDir}.lock`)).toBe(false);
    await expectBuildEndsAndFolderIsFree(buildPid, outDir, () => out.text);
  }, 90_000);
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
