import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { checkSite, reportWarnings } from '../../checks/check-site.ts';
import type { ResolvedConfig } from '../../config/config.ts';
import type { RouteRule } from '../../../runtime/shared/contract.ts';
import type { BuildRecorder } from '../../report/recorder.ts';
import { plural } from '../../terminal/format.ts';
import type { Logger } from '../../terminal/logger.ts';
import { saveFeedCursor, type BuildState } from './build-state.ts';

/**
 * An update in place of this very build (same code, options and site-wide data) that the change feed
 * says no page's documents can see a change in: every page, extra output and file of the output folder
 * is what a build would write again, so none is read or written. The content checks' warnings are the
 * previous build's, so the report and --strict say what a full build would; the state moves on to the
 * feed's new cursor.
 */
export async function keepUnchanged(
  input: {
    config: Pick<ResolvedConfig, 'outDir' | 'cacheDir' | 'payloadBudget' | 'strict' | 'logLevel'>;
    previous: BuildState;
    cursor: string;
    baseUrl: string;
    routeRules: Readonly<Record<string, RouteRule>>;
    recorder: Pick<BuildRecorder, 'restored' | 'inspected' | 'checked' | 'measureOutput'>;
  },
  logger: Logger,
): Promise<{ pages: number; bytes: number; media: number }> {
  const { config, previous, recorder } = input;
  let bytes = 0;
  // A page's links serve only the checks, which run only for a state saved without their warnings.
  const withLinks = previous.warnings === null;
  for (const page of previous.pages.values()) {
    recorder.restored(page.inspected, withLinks ? page.links : []);
    bytes += page.bytes;
  }
  // The checks' result is a function of the pages, the files and the options, which are the previous
  // build's: its warnings stand (a state saved without them is checked again, over the output folder).
  const files = [...previous.media, ...[...previous.outputs.keys()].map((file) => `/${file}`)];
  const warnings =
    previous.warnings ??
    (await checkSite({
      site: recorder.inspected(),
      siteDir: config.outDir,
      files,
      baseUrl: input.baseUrl,
      routeRules: input.routeRules,
      payloadBudget: config.payloadBudget,
    }));
  recorder.checked(warnings);
  reportWarnings(warnings, previous.pages.size, { strict: config.strict, verbose: config.logLevel === 'debug' }, logger);
  if (previous.feed && previous.feed.cursor !== input.cursor) await saveFeedCursor(config.cacheDir, config.outDir, previous, input.cursor);
  logger.info(
    'build',
    `nothing any page reads changed since build ${previous.buildId}: the ${plural(previous.pages.size, 'page')} in ${config.outDir} stand as they are`,
  );
  const outputBytes = (
    await Promise.all([...previous.outputs.keys()].map((file) => stat(join(config.outDir, file)).then((info) => info.size)))
  ).reduce((sum, size) => sum + size, 0);
  await recorder.measureOutput(
    config.outDir,
    { pageBytes: bytes, outputs: { files: previous.outputs.size, bytes: outputBytes } },
    {
      mode: 'incremental',
      pagesRendered: 0,
      pagesKept: previous.pages.size,
      richText: { cleaned: 0, reused: 0 },
      written: [],
      removed: [],
    },
  );
  return { pages: previous.pages.size, bytes, media: previous.media.size };
}
