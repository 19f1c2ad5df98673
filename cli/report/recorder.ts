import { rm } from 'node:fs/promises';
import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import { createPageInspector, type InspectedPage, type InspectedSite, type PageInspection } from '../checks/collect.ts';
import type { ContentWarning } from '../checks/run.ts';
import type { PageJob } from '../content/crawl.ts';
import type { Logger } from '../terminal/logger.ts';
import { observe, type BuildProgress, type StageHandle } from '../terminal/progress.ts';
import { formatDuration } from '../terminal/format.ts';
import { createBuildReport, saveBuildReport, TOP_N, type BuildChanges, type BuildReport } from './report.ts';
import { measureOutput, type OutputSize, type OutputTally } from './output-size.ts';
import { timeRequests, type QueryTiming } from './queries.ts';
import { summaryLines } from './summary.ts';

/** What the build tells the recorder as it goes; the recorder keeps progress, checks and the report. */
export interface BuildRecorder {
  /** Runs `run` as a stage without a count (the bundle). */
  stage<T>(name: string, run: () => Promise<T>): Promise<T>;
  /** The client for the crawl's list queries: timed for the report. */
  crawlClient(client: GraphQLClientHandle): GraphQLClientHandle;
  /** The client for the pages' own queries: timed, and each answer counts as a queried page. */
  pageClient(client: GraphQLClientHandle): GraphQLClientHandle;
  /** The crawl's pages, counted for the crawl stage (and the query stage, for pages that came with their data). */
  jobs(jobs: AsyncIterable<PageJob>, routes: number): AsyncIterable<PageJob>;
  /** Every page has its data. */
  queried(): void;
  /** Rendering and writing start; their total is the crawl's count, once the crawl has ended. */
  startPages(): void;
  /** One page rendered and handed to the writer: counted, and what was read from it kept for the checks and the report. */
  rendered(path: string, route: string, inspection: PageInspection): void;
  /** One page kept from the previous build unchanged: counted, its facts taken from that build's state. */
  restored(page: InspectedPage, links: readonly string[]): void;
  /** Every page's facts so far, in the order they were recorded. */
  inspected(): InspectedSite;
  /** Every page rendered and written. */
  pagesDone(): void;
  /** The content checks' warnings, for the report (checks/check-site.ts runs them). */
  checked(warnings: readonly ContentWarning[]): void;
  /** Sizes the committed output in `outDir` for the report, and notes what an incremental build changed. */
  measureOutput(outDir: string, site: OutputFacts, changes: BuildChanges): Promise<void>;
  /** Writes the report and prints the summary. */
  succeeded(buildId: string, drafts?: BuildReport['drafts']): Promise<BuildReport>;
  /** Writes the report of a failed build, or, when it failed before the crawl, removes an earlier build's report. */
  failed(error: unknown, buildId: string | null): Promise<void>;
}

/** What the build knows about the size of its finished output. */
export interface OutputFacts {
  /** What the extras step wrote of the extra outputs (feeds, calendars). */
  outputs: OutputTally;
  /** Bytes of every page's index.html and _payload.json, from the page writer. */
  pageBytes: number;
}

/** What the recorder needs to know of the build's options. */
export interface RecorderOptions {
  outDir: string;
  /** Where build-report.json goes; null: no report. */
  reportFile: string | null;
  /** Whether content warnings fail the build: the report says so. */
  strict: boolean;
}

/** Creates the recorder of one build. */
export function createBuildRecorder(config: RecorderOptions, logger: Logger, progress: BuildProgress, startedAt: Date): BuildRecorder {
  const started = progress.now();
  const timings: QueryTiming[] = [];
  const inspector = createPageInspector();
  let requests = (): number => 0;
  let warnings: ContentWarning[] = [];
  let output: OutputSize | null = null;
  let changes: BuildChanges | null = null;
  let render: StageHandle | null = null;
  let write: StageHandle | null = null;
  const query = (): StageHandle => progress.stage('query');
  // The page stages' total is the crawl's count, known once the crawl has ended (before or after rendering starts).
  const setPageTotals = (): void => {
    const crawl = progress.stages().find((s) => s.name === 'crawl');
    if (!crawl || crawl.endedAt === null) return;
    for (const stage of [query(), render, write]) stage?.setTotal(crawl.count);
  };

  const report = (error: unknown, buildId: string | null): BuildReport =>
    createBuildReport({
      buildId,
      startedAt,
      durationMs: progress.now() - started,
      outDir: config.outDir,
      strict: config.strict,
      stages: progress.stages(),
      now: progress.now(),
      pages: inspector.result().pages,
      output,
      requests: requests(),
      queries: timings,
      warnings,
      changes,
      error,
    });

  return {
    async stage(name, run) {
      const stage = progress.stage(name, '');
      try {
        return await run();
      } finally {
        stage.end();
      }
    },
    crawlClient(client) {
      requests = () => client.requestCount();
      return timeRequests(client, timings);
    },
    pageClient(client) {
      requests = () => client.requestCount();
      return timeRequests(client, timings, () => query().add());
    },
    jobs(jobs, routes) {
      const crawl = progress.stage('crawl');
      query();
      return observe(
        jobs,
        (job) => {
          crawl.add();
          if (job.data !== undefined) query().add();
        },
        () => {
          crawl.end();
          setPageTotals();
          logger.info(
            'crawl',
            `${crawl.state.count} pages from ${routes} routes in ${formatDuration(progress.now() - crawl.state.startedAt)}`,
          );
        },
      );
    },
    queried: () => query().end(),
    startPages() {
      render = progress.stage('render');
      write = progress.stage('write');
      setPageTotals();
    },
    rendered(path, route, inspection) {
      render?.add();
      write?.add();
      inspector.add(path, route, inspection);
    },
    restored(page, links) {
      render?.add();
      write?.add();
      inspector.restore(page, links);
    },
    inspected: () => inspector.result(),
    pagesDone() {
      render?.end();
      write?.end();
    },
    checked(found) {
      warnings = [...found];
    },
    async measureOutput(outDir, site, buildChanges) {
      output = await measureOutput(outDir, inspector.result().pages, site.pageBytes, site.outputs, TOP_N);
      changes = buildChanges;
    },
    async succeeded(buildId, drafts) {
      const result = drafts ? { ...report(null, buildId), drafts } : report(null, buildId);
      await saveBuildReport(config.reportFile, result, logger);
      for (const line of summaryLines(result, config.reportFile)) logger.info('summary', line);
      return result;
    },
    async failed(error, buildId) {
      // A build that failed before it had pages (unreachable endpoint, failing site query) has only its
      // error to report, which the log shows; an earlier build's report must not pass for this one's.
      if (!progress.stages().some((s) => s.name === 'crawl')) {
        if (config.reportFile) await rm(config.reportFile, { force: true }).catch(() => undefined);
        return;
      }
      await saveBuildReport(config.reportFile, report(error, buildId), logger);
    },
  };
}
