import type { ContentWarning } from '../checks/run.ts';
import type { InspectedPage } from '../checks/collect.ts';
import { commandError, describeCause } from '../errors/format-error.ts';
import type { Logger } from '../terminal/logger.ts';
import type { StageState } from '../terminal/progress.ts';
import type { OutputSize } from './output-size.ts';
import { slowestQueries, type QueryTiming } from './queries.ts';
import { redactUrlsIn } from '../../runtime/shared/redact-url.ts';
import { writeFileAtomic } from '../output/write.ts';

/** Entries in each "largest" and "slowest" list. */
export const TOP_N = 10;

/**
 * build-report.json: what a build did, for CI. Written beside the output folder (never inside it,
 * so it is never published) after every build, failed ones included. `version` changes only when a
 * field changes meaning; fields may be added.
 */
export interface BuildReport {
  version: 1;
  status: 'succeeded' | 'failed';
  /** Null when the build failed before the id was known. */
  buildId: string | null;
  startedAt: string;
  durationMs: number;
  outDir: string;
  strict: boolean;
  /** Whether drafts were published on purpose (--drafts), and how many the build left out otherwise (cli/content/drafts.ts). */
  drafts?: { published: boolean; leftOut: number };
  /** Each stage in start order, with its item count (pages, for the page stages) and duration. */
  stages: { name: string; count: number; ms: number }[];
  pages: { total: number; byRoute: Record<string, number> };
  /** Null when the build failed before its output was complete. */
  output: Omit<OutputSize, 'largestPages' | 'largestPayloads'> | null;
  largestPages: { path: string; bytes: number }[];
  largestPayloads: { path: string; bytes: number }[];
  /** GraphQL requests sent (retries included). */
  requests: number;
  slowestQueries: { operation: string; variables: Record<string, unknown>; ms: number; ok: boolean }[];
  warnings: ContentWarning[];
  /**
   * How the output was written: `full` replaced the whole folder; `incremental` updated the previous
   * build in place and lists the files it wrote (changed pages, feeds, sitemap…) and removed. Null when
   * the build failed.
   */
  changes: BuildChanges | null;
  /** Why the build failed, or null. */
  error: { code: string; message: string; hint: string; failures: readonly unknown[] } | null;
}

/** What a build changed in its output folder. */
export interface BuildChanges {
  mode: 'full' | 'incremental';
  /** Pages rendered again (all of them in a full build). */
  pagesRendered: number;
  /** Pages kept from the previous build unchanged. */
  pagesKept: number;
  /** Rich-text fields cleaned by the sanitiser, and those whose cleaned text the build cache held. */
  richText: { cleaned: number; reused: number };
  /** Incremental builds: the site paths of the files written, in the order they were written. */
  written: string[];
  /** Incremental builds: the site paths of the files removed (pages and outputs that no longer exist). */
  removed: string[];
}

/** What a build collected, for its report. */
export interface ReportInput {
  buildId: string | null;
  startedAt: Date;
  durationMs: number;
  outDir: string;
  strict: boolean;
  stages: readonly StageState[];
  /** The clock reading the stages are measured against. */
  now: number;
  /** Every page, for the count per route. */
  pages: Iterable<Pick<InspectedPage, 'route'>> & { readonly length: number };
  output: OutputSize | null;
  requests: number;
  queries: readonly QueryTiming[];
  warnings: readonly ContentWarning[];
  changes: BuildChanges | null;
  error: unknown;
}

/** Assembles the report. Pure. */
export function createBuildReport(input: ReportInput): BuildReport {
  const byRoute: Record<string, number> = {};
  for (const page of input.pages) byRoute[page.route] = (byRoute[page.route] ?? 0) + 1;
  return {
    version: 1,
    status: input.error === null ? 'succeeded' : 'failed',
    buildId: input.buildId,
    startedAt: input.startedAt.toISOString(),
    durationMs: Math.round(input.durationMs),
    outDir: input.outDir,
    strict: input.strict,
    stages: input.stages.map((s) => ({ name: s.name, count: s.count, ms: Math.round((s.endedAt ?? input.now) - s.startedAt) })),
    pages: { total: input.pages.length, byRoute },
    output: input.output && { files: input.output.files, bytes: input.output.bytes, byKind: input.output.byKind },
    largestPages: input.output?.largestPages ?? [],
    largestPayloads: input.output?.largestPayloads ?? [],
    requests: input.requests,
    slowestQueries: slowestQueries(input.queries, TOP_N).map((q) => ({ ...q, ms: Math.round(q.ms) })),
    warnings: [...input.warnings],
    changes: input.error === null ? input.changes : null,
    error: input.error === null ? null : errorOf(input.error),
  };
}

/** Writes the report as JSON, through a temporary file so CI never reads half a report; credentials in its URLs redacted. */
export async function writeBuildReport(file: string, report: BuildReport): Promise<void> {
  await writeFileAtomic(file, redactUrlsIn(JSON.stringify(report, null, 2)) + '\n');
}

/** Writes the report to `file` (none when null). A report that cannot be written is a warning: the build itself is done. */
export async function saveBuildReport(file: string | null, report: BuildReport, logger: Logger): Promise<void> {
  if (file === null) return;
  try {
    await writeBuildReport(file, report);
  } catch (cause) {
    logger.warn('report', `${file} could not be written (${describeCause(cause)}); pass --report with a writable path, or --no-report`);
  }
}

// --- internal ---

function errorOf(error: unknown): NonNullable<BuildReport['error']> {
  const shown = commandError(error);
  return { code: shown.code, message: shown.message, hint: shown.hint, failures: shown.details.failures ?? [] };
}
