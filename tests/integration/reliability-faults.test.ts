import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../cli/build/build.ts';
import type { UserConfig } from '../../cli/config/config.ts';
import { isBuildError, type BuildError } from '../../cli/errors/errors.ts';
import { formatError } from '../../cli/errors/format-error.ts';
import { buildInProcess } from '../helpers/build-in-process.ts';
import { runCli } from '../helpers/cli.ts';
import { startFaultServer, type FaultRule, type FaultServer } from '../helpers/fault-server.ts';
import { rejectionOf } from '../helpers/rejection.ts';
import { snapshotTree } from '../helpers/tree.ts';

/**
 * The build against a backend that fails in every way a real one (or the proxy in front of it) does.
 * Requests are kept short (timeout 1.5 s, retry delay 10 ms) so a whole faulty build takes seconds.
 */

const EPOCH = '1700000000';
let server: FaultServer;
let reference: string;
let referencePages: number;

async function tempOut(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'site-faults-')), 'site');
}

function runBuild(outDir: string, user: UserConfig = {}): Promise<BuildResult> {
  return buildInProcess(
    { endpoint: server.url, outDir, timeoutMs: 1500, retries: 2, retryDelayMs: 10, ...user },
    { SOURCE_DATE_EPOCH: EPOCH },
  );
}

function buildError(promise: Promise<unknown>): Promise<BuildError> {
  return rejectionOf(promise, isBuildError);
}

/** A folder holding a copy of the reference build, as the previous output of the next build. */
async function previousOutput(): Promise<string> {
  const out = await tempOut();
  await cp(reference, out, { recursive: true });
  return out;
}

beforeAll(async () => {
  // A fixed clock: the backend's "upcoming events" do not move between the builds of one run.
  server = await startFaultServer({ backend: { now: () => new Date('2026-03-02T09:00:00Z') } });
  reference = await tempOut();
  referencePages = (await runBuild(reference)).pages;
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('a build against a backend with transient faults', () => {
  it('retries every kind of transient fault and writes exactly the site a fault-free build writes', async () => {
    const rules: FaultRule[] = [
      { operation: 'Home', fault: { kind: 'hang' }, calls: [1] },
      { operation: 'AboutPodcast', fault: { kind: 'stall-body' }, calls: [1] },
      { operation: 'NewsArticles', fault: { kind: 'reset' }, calls: [1, 2] },
      { operation: 'EditorialPage', fault: { kind: 'status', status: 500 }, calls: [1] },
      { operation: 'EventEntries', fault: { kind: 'status', status: 502 }, calls: [1] },
      { operation: 'PublicationEntries', fault: { kind: 'status', status: 503 }, calls: [1, 2] },
      { operation: 'EventsIndex', fault: { kind: 'status', status: 429, retryAfter: '1' }, calls: [1] },
      { operation: 'Documents', fault: { kind: 'malformed-json' }, calls: [1] },
      { operation: 'ResearchIndex', fault: { kind: 'html' }, calls: [1] },
    ];
    server.setRules(rules);
    const start = server.log.length;
    const out = await tempOut();
    const result = await runBuild(out);
    const log = server.log.slice(start);

    expect(result.pages).toBe(referencePages);
    expect(await snapshotTree(out)).toEqual(await snapshotTree(reference));
    // Every fault was really served, and each operation then succeeded.
    for (const rule of rules) {
      const seen = log.filter((e) => e.operation === rule.operation).map((e) => e.fault);
      expect(seen.slice(0, (rule.calls as number[]).length), String(rule.operation)).toEqual(
        (rule.calls as number[]).map(() => rule.fault.kind),
      );
      expect(seen, String(rule.operation)).toContain('pass');
    }
    // EventsIndex runs once per build: its second request is the retry after Retry-After.
    const events = log.filter((e) => e.operation === 'EventsIndex');
    expect(events[1]!.at - events[0]!.at).toBeGreaterThanOrEqual(950);
  }, 120_000);
});

describe('a build against a backend with persistent faults', () => {
  const persistent: FaultRule[] = [
    { operation: 'Home', fault: { kind: 'status', status: 503 } },
    { operation: 'AboutPodcast', fault: { kind: 'hang' } },
    { operation: 'ArtisticResearch', fault: { kind: 'reset' } },
    { operation: 'AboutPeople', fault: { kind: 'status', status: 500 } },
    { operation: 'LoginPage', fault: { kind: 'html' } },
    { operation: 'EditorialPage', fault: { kind: 'graphql-errors', message: 'resolver exploded' } },
    { operation: 'NewsArticles', fault: { kind: 'malformed-json' } },
  ];

  it('fails with every failed page, its operation and cause, and keeps the previous output byte-identical', async () => {
    server.setRules(persistent);
    const out = await previousOutput();
    const before = await snapshotTree(out);
    const parent = await readdir(join(out, '..'));

    const error = await buildError(runBuild(out));

    expect(error.code).toBe('PagesFailed');
    const failures = error.details.failures ?? [];
    const byPage = Object.fromEntries(failures.map((f) => [f.page, f]));
    expect(byPage['/']).toMatchObject({ operation: 'Home', cause: expect.stringContaining('HTTP 503') as unknown });
    expect(byPage['/about/podcast']).toMatchObject({
      operation: 'AboutPodcast',
      cause: expect.stringMatching(/got no answer from .* within 1500 ms$/) as unknown,
    });
    expect(byPage['/about/artistic-research']).toMatchObject({
      operation: 'ArtisticResearch',
      cause: expect.stringMatching(/could not reach .*\((ECONNRESET|UND_ERR_SOCKET|other side closed)/) as unknown,
    });
    expect(byPage['/about/people']).toMatchObject({ operation: 'AboutPeople', cause: expect.stringContaining('HTTP 500') as unknown });
    expect(byPage['/login']).toMatchObject({ operation: 'LoginPage', cause: expect.stringContaining('text/html') as unknown });
    expect(byPage['/news/:slug']).toMatchObject({ operation: 'NewsArticles', cause: expect.stringContaining('not valid JSON') as unknown });
    const editorial = failures.filter((f) => f.operation === 'EditorialPage');
    expect(editorial.map((f) => f.page).sort()).toEqual(['/about', '/about/about-large', '/about/contact']);
    for (const f of editorial) expect(f.cause).toContain('resolver exploded');
    expect(failures).toHaveLength(9);
    for (const f of failures) expect(f.fix.length).toBeGreaterThan(20);

    const text = formatError(error);
    expect(text).toMatch(/^\[PagesFailed\] 9 of \d+ pages failed; the previous output was kept unchanged\./);
    for (const f of failures) expect(text).toContain(`  - ${f.page} (route ${f.route}, operation ${f.operation}): ${f.cause}`);
    expect(text).not.toMatch(/^\s+at /m);

    expect(await snapshotTree(out)).toEqual(before);
    expect(await readdir(join(out, '..'))).toEqual(parent);
  }, 120_000);

  it('exits with code 1 and prints the summary on the command line, without a stack trace', async () => {
    server.setRules([
      { operation: 'Home', fault: { kind: 'status', status: 502 } },
      { operation: 'Documents', fault: { kind: 'graphql-errors', message: 'documents resolver exploded' } },
    ]);
    const out = await previousOutput();
    const before = await snapshotTree(out);
    const result = await runCli([
      'build',
      '--endpoint',
      server.url,
      '--out',
      out,
      '--timeout',
      '1500',
      '--retries',
      '1',
      '--retry-delay',
      '10',
      '--quiet',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[PagesFailed] 3 of');
    expect(result.stderr).toContain('  - / (route home, operation Home): Home failed with HTTP 502 from');
    expect(result.stderr).toContain(
      '  - /documents (route documents, operation Documents): Documents returned GraphQL errors: documents resolver exploded',
    );
    expect(result.stderr).toContain('fix: The backend kept failing after every retry');
    expect(result.stderr).not.toMatch(/^\s+at /m);
    expect(await snapshotTree(out)).toEqual(before);
  }, 120_000);

  it('fails at once with the operation and cause when the site-wide query gets an HTML page', async () => {
    server.setRules([{ operation: 'SiteData', fault: { kind: 'html' } }]);
    const start = server.log.length;
    const out = await previousOutput();
    const before = await snapshotTree(out);
    const error = await buildError(runBuild(out));
    expect(error.code).toBe('SiteQueryFailed');
    expect(error.message).toMatch(
      /^The site-wide query SiteData failed: SiteData got an unreadable answer from .*: HTTP 200 \(text\/html; charset=utf-8\) was not a GraphQL JSON answer/,
    );
    expect(server.log.slice(start).filter((e) => e.operation === 'SiteData')).toHaveLength(3);
    expect(await snapshotTree(out)).toEqual(before);
  }, 60_000);
});

describe('the page-count guard', () => {
  it('fails a build whose news list suddenly comes back empty, naming both counts, and keeps the output', async () => {
    server.setRules([{ operation: 'NewsArticles', fault: { kind: 'empty-lists' } }]);
    const out = await previousOutput();
    const before = await snapshotTree(out);
    const error = await buildError(runBuild(out));
    expect(error.code).toBe('PageCountDropped');
    expect(error.message).toMatch(
      new RegExp(`^This build has (\\d+) pages, \\d+% fewer than the ${referencePages} of the previous build in `),
    );
    expect(error.hint).toContain('--allow-shrink');
    expect(await snapshotTree(out)).toEqual(before);
  }, 120_000);

  it('accepts a drop of 20% or less without being told', async () => {
    // Every research project gone: a dozen pages fewer, under the limit.
    server.setRules([{ operation: 'ResearchProjectEntries', fault: { kind: 'empty-lists' } }]);
    const out = await previousOutput();
    const result = await runBuild(out);
    expect(result.pages).toBeLessThan(referencePages - 5);
    expect(result.pages).toBeGreaterThanOrEqual(referencePages * 0.8);
  }, 120_000);

  it('replaces the output with the smaller build when --allow-shrink says the drop is intended', async () => {
    server.setRules([{ operation: 'NewsArticles', fault: { kind: 'empty-lists' } }]);
    const out = await previousOutput();
    const result = await runCli(['build', '--endpoint', server.url, '--out', out, '--allow-shrink', '--quiet'], {
      env: { SOURCE_DATE_EPOCH: EPOCH },
    });
    expect(result.stderr).not.toContain('PageCountDropped');
    expect(result.code).toBe(0);
    const files = Object.keys(await snapshotTree(out));
    expect(files.filter((f) => /^news\/[^/]+\/index\.html$/.test(f) && !f.startsWith('news/page/'))).toEqual([]);
  }, 120_000);
});
