import { describe, expect, it } from 'vitest';
import { createBuildError, BuildErrors } from '../../../../cli/errors/errors.ts';
import type { InspectedPage } from '../../../../cli/checks/collect.ts';
import { createBuildProgress } from '../../../../cli/terminal/progress.ts';
import { createBuildReport, type ReportInput } from '../../../../cli/report/report.ts';
import { timeRequests, type QueryTiming } from '../../../../cli/report/queries.ts';
import { summaryLines } from '../../../../cli/report/summary.ts';
import type { GraphQLClientHandle } from '../../../../runtime/shared/graphql.ts';

function inspected(path: string, route: string): InspectedPage {
  return { path, route, title: path, ids: '', imagesWithoutAlt: [], htmlChars: 100, payloadChars: 10, payloadBytesOverBudget: null };
}

function input(overrides: Partial<ReportInput> = {}): ReportInput {
  let t = 0;
  const progress = createBuildProgress(() => t);
  const crawl = progress.stage('crawl');
  crawl.add(3);
  t = 120;
  crawl.end();
  return {
    buildId: 'abc123',
    startedAt: new Date('2026-01-02T03:04:05Z'),
    durationMs: 2345.6,
    outDir: '/out/site',
    strict: false,
    stages: progress.stages(),
    now: t,
    pages: [inspected('/', 'home'), inspected('/news/a', 'news-article'), inspected('/news/b', 'news-article')],
    output: {
      files: 9,
      bytes: 9000,
      byKind: {
        pages: { files: 6, bytes: 6000 },
        assets: { files: 1, bytes: 1000 },
        media: { files: 1, bytes: 1000 },
        other: { files: 1, bytes: 1000 },
      },
      largestPages: [{ path: '/news/a', bytes: 3000 }],
      largestPayloads: [{ path: '/news/b', bytes: 700 }],
    },
    requests: 4,
    queries: [
      { operation: 'Fast', variables: {}, ms: 5, ok: true },
      { operation: 'NewsArticle', variables: { slug: 'a' }, ms: 250.4, ok: true },
      { operation: 'Broken', variables: {}, ms: 40, ok: false },
    ],
    warnings: [
      {
        check: 'link',
        page: '/news/a',
        route: 'news-article',
        message: 'links to /x, which is not a page, a redirect or a file of this build',
        fix: 'Correct it.',
      },
    ],
    changes: { mode: 'full', pagesRendered: 3, pagesKept: 0, richText: { cleaned: 2, reused: 0 }, written: [], removed: [] },
    error: null,
    ...overrides,
  };
}

describe('the build report', () => {
  it('holds pages per route, stage times, sizes, the slowest queries first and every warning', () => {
    const report = createBuildReport(input());
    expect(report).toMatchObject({
      version: 1,
      status: 'succeeded',
      buildId: 'abc123',
      startedAt: '2026-01-02T03:04:05.000Z',
      durationMs: 2346,
      pages: { total: 3, byRoute: { home: 1, 'news-article': 2 } },
      stages: [{ name: 'crawl', count: 3, ms: 120 }],
      output: { files: 9, bytes: 9000 },
      largestPages: [{ path: '/news/a', bytes: 3000 }],
      largestPayloads: [{ path: '/news/b', bytes: 700 }],
      requests: 4,
      error: null,
    });
    expect(report.slowestQueries.map((q) => `${q.operation} ${q.ms}`)).toEqual(['NewsArticle 250', 'Broken 40', 'Fast 5']);
    expect(report.warnings).toHaveLength(1);
  });

  it('records why a build failed, with the code, hint and per-page failures', () => {
    const failures = [{ page: '/news/a', route: 'news-article', operation: 'NewsArticle', cause: 'HTTP 500', fix: 'Check the backend.' }];
    const report = createBuildReport(input({ error: createBuildError(BuildErrors.PagesFailed, [1, 3], { failures }), output: null }));
    expect(report.status).toBe('failed');
    expect(report.error).toMatchObject({
      code: 'PagesFailed',
      message: '1 of 3 pages failed; the previous output was kept unchanged.',
      failures,
    });
    expect(report.error!.hint).not.toBe('');
    expect(report.largestPages).toEqual([]);
  });

  it('sums it up in a few labelled lines for the terminal', () => {
    const lines = summaryLines(createBuildReport(input()), '/out/build-report.json');
    expect(lines[0]).toBe('pages     3 in 2.3 s (build abc123), 4 GraphQL requests');
    expect(lines).toContain('routes    news-article 2 · home 1');
    expect(lines).toContain('output    9 files, 8.8 KiB: pages 5.9 KiB · assets 1000 B · media 1000 B · other 1000 B');
    expect(lines).toContain('slowest   NewsArticle {"slug":"a"} 250 ms · Broken 40 ms · Fast 5 ms');
    expect(lines.at(-1)).toBe('warnings  1 (link 1); report: /out/build-report.json');
  });
});

describe('timeRequests', () => {
  it('times every request, failed ones too, and reports each as settled', async () => {
    let t = 0;
    const client: GraphQLClientHandle = {
      name: 'default',
      endpoint: 'http://127.0.0.1/graphql',
      requestCount: () => 7,
      request: async <T>(document: string) => {
        t += 30;
        if (document.includes('Bad')) throw new Error('boom');
        return { ok: true } as T;
      },
    };
    const log: QueryTiming[] = [];
    let settled = 0;
    const timed = timeRequests(
      client,
      log,
      () => settled++,
      () => t,
    );
    await timed.request('query Good { a }', { id: 1 });
    await expect(timed.request('query Bad { a }')).rejects.toThrow('boom');
    expect(log).toEqual([
      { operation: 'Good', variables: { id: 1 }, ms: 30, ok: true },
      { operation: 'Bad', variables: {}, ms: 30, ok: false },
    ]);
    expect({ settled, count: timed.requestCount() }).toEqual({ settled: 2, count: 7 });
  });
});
