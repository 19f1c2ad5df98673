import type { RouteRule } from '../../runtime/shared/contract.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import type { Logger } from '../terminal/logger.ts';
import type { InspectedSite } from './collect.ts';
import { pagesWithWarnings, PRINTED_WARNINGS, warningFailures, warningLines } from './format.ts';
import { siteFileExists } from './links.ts';
import { runContentChecks, type ContentWarning } from './run.ts';

export interface SiteCheckInput {
  /** Every page's facts, as the inspector collected them while the pages rendered. */
  site: InspectedSite;
  /** The staging folder, which holds the files this build wrote. */
  siteDir: string;
  /** Site paths (URL-encoded) of files known to exist that the staging folder may not hold (the media, an update in place's unchanged outputs). */
  files: Iterable<string>;
  baseUrl: string;
  routeRules: Readonly<Record<string, RouteRule>>;
  payloadBudget: number;
}

/** Runs the content checks over the finished output: every warning, sorted by page. */
export function checkSite(input: SiteCheckInput): Promise<ContentWarning[]> {
  return runContentChecks(input.site, {
    baseUrl: input.baseUrl,
    routeRules: input.routeRules,
    fileExists: siteFileExists(input.siteDir, input.files),
    payloadBudget: input.payloadBudget,
  });
}

/**
 * Prints the warnings of `pages` checked pages, or, under --strict, throws them as ContentChecksFailed
 * (before the output is replaced).
 */
export function reportWarnings(
  warnings: readonly ContentWarning[],
  pages: number,
  options: { strict: boolean; verbose: boolean },
  logger: Logger,
): void {
  if (warnings.length > 0 && options.strict) {
    throw createBuildError(BuildErrors.ContentChecksFailed, [warnings.length, pagesWithWarnings(warnings)], {
      failures: warningFailures(warnings),
    });
  }
  // --verbose lists every warning; otherwise the report holds those past the first PRINTED_WARNINGS.
  for (const line of warningLines(warnings, options.verbose ? Infinity : PRINTED_WARNINGS)) logger.warn('check', line);
  logger.info(
    'check',
    `${pages} pages checked: ${warnings.length === 0 ? 'no problems' : `${warnings.length} warnings on ${pagesWithWarnings(warnings)} pages`}`,
  );
}
