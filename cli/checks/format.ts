import type { PageFailure } from '../errors/errors.ts';
import type { ContentWarning } from './run.ts';

/** Warnings printed one per line before the rest are summed up; build-report.json has every one. */
export const PRINTED_WARNINGS = 50;

/** `/news/x: links to /news/gone, which is not a page…` lines, at most `limit`, then how many more there are. */
export function warningLines(warnings: readonly ContentWarning[], limit = PRINTED_WARNINGS): string[] {
  const lines = warnings.slice(0, limit).map((w) => `${w.page}: ${w.message} (${w.check})`);
  if (warnings.length > limit) lines.push(`… and ${warnings.length - limit} more content warnings; the build report lists them all`);
  return lines;
}

/** The warnings as the per-page failures of a strict build's error, at most `limit` of them. */
export function warningFailures(warnings: readonly ContentWarning[], limit = PRINTED_WARNINGS): PageFailure[] {
  return warnings
    .slice(0, limit)
    .map((w) => ({ page: w.page, route: w.route, operation: `${w.check} check`, cause: w.message, fix: w.fix }));
}

/** How many distinct pages have warnings. */
export function pagesWithWarnings(warnings: readonly ContentWarning[]): number {
  return new Set(warnings.map((w) => w.page)).size;
}
