import type { Command } from 'commander';
import { DEFAULTS } from '../config/config.ts';
import { terminalOf } from '../config/environment.ts';
import { createLogger } from '../terminal/logger.ts';
import { createBuildProgress } from '../terminal/progress.ts';
import { progressModeFor, startProgressDisplay } from '../terminal/progress-display.ts';
import { logLevelOf, type CommonFlags } from './shared.ts';

/** `site publish`: uploads a build, or rolls back to an earlier one. */
export function addPublishCommand(program: Command): void {
  program
    .command('publish')
    .description('Upload a built site to S3-compatible object storage, safely for open tabs, or roll back to an earlier build.')
    .option('--out <dir>', 'folder holding the built site', DEFAULTS.outDir)
    .option('--bucket <name>', 'bucket to publish to (required)')
    .option('--prefix <prefix>', 'key prefix inside the bucket (default: the bucket root)')
    .option(
      '--endpoint-url <url>',
      'S3-compatible endpoint (env AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL); default: AWS S3. Credentials and region come from the AWS environment variables',
    )
    .option('--keep-builds <n>', 'builds whose files stay for open tabs, the live one included', '3')
    .option('--max-deletes <n>', 'at most this many deletions per run (0: none)', '256')
    .option('--concurrency <n>', 'requests in flight at once', '8')
    .option('--dry-run', 'list every action and change nothing')
    .option(
      '--allow-foreign-objects',
      'publish into a bucket or prefix that holds objects no published build lists (publish never deletes them or writes over them); default: refuse',
    )
    .option(
      '--adopt-records',
      "take the build records already in the bucket as publish's own whatever their signature and sign them with SITE_PUBLISH_KEY (once, after upgrading or changing the key); default: records without a valid signature are ignored",
    )
    .option(
      '--rollback <buildId>',
      'point latest.json back to an earlier build still in the bucket (restores its pages from --out); default: none, the build in --out is published',
    )
    .option('--quiet', 'print warnings and errors only')
    .option('--verbose', 'print a line per file, debug lines and stack traces')
    .action(
      async (
        flags: {
          out: string;
          bucket?: string;
          prefix?: string;
          endpointUrl?: string;
          keepBuilds: string;
          maxDeletes: string;
          concurrency: string;
          dryRun?: boolean;
          allowForeignObjects?: boolean;
          adoptRecords?: boolean;
          rollback?: string;
        } & CommonFlags,
      ) => {
        // Loaded on demand so other commands never pay for the AWS SDK.
        const { publish, resolvePublishConfig, rollback } = await import('../publish/index.ts');
        const config = resolvePublishConfig({ ...flags, outDir: flags.out, logLevel: logLevelOf(flags) });
        // The build's progress display: a bar per upload stage on a terminal, a line every 2 s in a log.
        const progress = createBuildProgress();
        const display = startProgressDisplay(progress, progressModeFor(config.logLevel, Boolean(process.stderr.isTTY), terminalOf()));
        try {
          const deps = { logger: createLogger(config.logLevel, display.streams), progress };
          await (config.rollback === null ? publish(config, deps) : rollback(config, deps));
        } finally {
          display.stop();
        }
      },
    );
}
