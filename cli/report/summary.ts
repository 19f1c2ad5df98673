import { formatBytes } from '../terminal/format.ts';
import { formatCount, formatDuration } from '../terminal/format.ts';
import type { BuildReport } from './report.ts';

/** Entries the terminal summary shows per list; build-report.json has more. */
const SHOWN = 5;

/**
 * The summary printed at the end of a build: pages per route, the output's size by kind, the largest
 * pages and payloads, the slowest queries and the warnings' count, one `[summary]` line each:
 *
 *     pages    144 in 2.2 s (build 7f96f98063549c5c), 63 GraphQL requests
 *     routes   news-article 40 · event 30 · publication 30 · …
 *     output   612 files, 5.7 MiB: pages 2.3 MiB · payloads 0.5 MiB · assets 1.1 MiB · media 1.6 MiB · other 0.2 MiB
 *     largest  /about/about-large 98.1 KiB · / 41.3 KiB · …
 */
export function summaryLines(report: BuildReport, reportFile: string | null): string[] {
  const lines = [
    `pages     ${formatCount(report.pages.total)} in ${formatDuration(report.durationMs)}${report.buildId ? ` (build ${report.buildId})` : ''}, ${formatCount(report.requests)} GraphQL requests`,
  ];
  const routes = Object.entries(report.pages.byRoute).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  lines.push(
    ...wrap(
      'routes    ',
      routes.map(([route, n]) => `${route} ${formatCount(n)}`),
    ),
  );
  if (report.output) {
    const kinds = Object.entries(report.output.byKind).map(([kind, t]) => `${kind} ${formatBytes(t.bytes)}`);
    lines.push(`output    ${formatCount(report.output.files)} files, ${formatBytes(report.output.bytes)}: ${kinds.join(' · ')}`);
  }
  if (report.largestPages.length > 0)
    lines.push(
      `largest   ${report.largestPages
        .slice(0, SHOWN)
        .map((p) => `${p.path} ${formatBytes(p.bytes)}`)
        .join(' · ')}`,
    );
  if (report.largestPayloads.length > 0)
    lines.push(
      `payloads  ${report.largestPayloads
        .slice(0, SHOWN)
        .map((p) => `${p.path} ${formatBytes(p.bytes)}`)
        .join(' · ')}`,
    );
  if (report.slowestQueries.length > 0) {
    lines.push(
      `slowest   ${report.slowestQueries
        .slice(0, SHOWN)
        .map((q) => `${q.operation}${variablesOf(q.variables)} ${formatDuration(q.ms)}`)
        .join(' · ')}`,
    );
  }
  lines.push(`warnings  ${warningCounts(report)}${reportFile ? `; report: ${reportFile}` : ''}`);
  return lines;
}

// --- internal ---

/** `label item · item · …` over as many lines as it takes to stay within `width` characters. */
function wrap(label: string, items: readonly string[], width = 100): string[] {
  const lines: string[] = [];
  let line = label;
  for (const item of items) {
    const next = line.length === label.length ? line + item : `${line} · ${item}`;
    if (next.length > width && line.length > label.length) {
      lines.push(line);
      line = ' '.repeat(label.length) + item;
    } else line = next;
  }
  return [...lines, line];
}

function warningCounts(report: BuildReport): string {
  if (report.warnings.length === 0) return 'none';
  const byCheck = new Map<string, number>();
  for (const w of report.warnings) byCheck.set(w.check, (byCheck.get(w.check) ?? 0) + 1);
  return `${formatCount(report.warnings.length)} (${[...byCheck].map(([check, n]) => `${check} ${formatCount(n)}`).join(', ')})`;
}

function variablesOf(variables: Record<string, unknown>): string {
  const json = JSON.stringify(variables);
  if (json === '{}') return '';
  return ` ${json.length > 60 ? json.slice(0, 59) + '…' : json}`;
}
