import { spawn } from 'node:child_process';
import { build } from '../../build/build.ts';
import { hasBuildState } from '../../build/incremental/build-state.ts';
import { createStateMemory } from '../../build/incremental/state-memory.ts';
import type { ResolvedConfig } from '../../config/config.ts';
import type { PublishConfig } from '../../config/publish.ts';
import { childBuildEnvironment } from '../../config/environment.ts';
import { loadChangeFeed } from '../../config/site-modules.ts';
import { generatorFingerprint } from '../../build/generator-fingerprint.ts';
import { BuildErrors, createBuildError, isBuildError } from '../../errors/errors.ts';
import { describeCause } from '../../errors/format-error.ts';
import { lockOutput } from '../../output/lock.ts';
import { readLatest } from '../../output/output.ts';
import { publish } from '../../publish/index.ts';
import type { FileHashes } from '../../publish/local.ts';
import { createRememberingStore, type RememberingStore } from '../../publish/remembering-store.ts';
import type { CheckedRecords } from '../../publish/remote-builds.ts';
import { createS3Store } from '../../publish/s3-store.ts';
import { formatDuration, plural } from '../../terminal/format.ts';
import type { Logger } from '../../terminal/logger.ts';
import { createGraphQLClient } from '../../../runtime/shared/graphql.ts';
import { readChangeFeed } from '../../content/change-feed.ts';
import { followContent } from '../dev-content.ts';
import { createLiveMetrics, observe, type LiveMetrics } from './live-metrics.ts';
import { leaseGuardedStore } from './lease-guard.ts';
import { createOutputTail } from './output-tail.ts';
import { startLiveServer, type FailedStage } from './live-server.ts';
import { createUpdateQueue, type Batch } from './update-queue.ts';

/**
 * `site live` (docs/live.md): a process that keeps the site live. It learns of edits from the backend's
 * change feed (polled) and from a CMS's signed webhook, takes the changes that arrive together into one
 * update, updates the output folder in place with the build's own stages (`build()`, in this process, so
 * its modules stay loaded between updates), and publishes what changed to the bucket, latest.json last
 * (`site publish`'s own protocol, so a failed or killed update never leaves the bucket half-updated).
 * On start it runs one update, which converges: the folder's saved state and the feed tell it what
 * changed while it was not running. A failed update is tried again with its changes, with a growing
 * delay. One process per output folder (a lock beside it) and per bucket (docs/live.md says how).
 */

export interface LiveOptions {
  /** The build's options: `outDir` is the folder kept up to date, `endpoint` the backend (required). */
  config: ResolvedConfig;
  /** Where to publish; null: the output folder is the site (a host that serves a folder). */
  publish: PublishConfig | null;
  host: string;
  port: number;
  /** How often the change feed is asked; 0: never (the webhook only). */
  pollIntervalMs: number;
  /** SITE_LIVE_SECRET; null: the webhook is off. */
  webhookSecret: string | null;
  /** Quiet time before an update starts after a change. @default 50 */
  debounceMs?: number;
  /** First retry delay after a failure, doubling. @default 1000 */
  retryMs?: number;
  /** @default 60000 */
  maxRetryMs?: number;
  logger: Logger;
  now?: () => number;
  /**
   * Told when the process stops on its own: its lease was taken over, or the code on disk changed since
   * it was loaded (a deploy: the supervisor starts it again with the new code). The command ends with
   * a non-zero status then. @default nothing
   */
  onStop?: (why: 'lease lost' | 'code changed') => void;
  /**
   * The command line of `site build` with the same options but the endpoint (given it in GRAPHQL_ENDPOINT), for a build that
   * renders every page (no saved state): it runs as a process of its own. @default none: every build runs in this process
   */
  childBuild?: readonly string[];
  /** The fingerprint of the code and options (build/generator-fingerprint.ts); for tests. @default generatorFingerprint(config) */
  codeFingerprint?: () => Promise<string>;
}

export interface LiveSession {
  /** Where /health, /metrics and /webhook answer. */
  url: string;
  metrics: LiveMetrics;
  /** Resolves once no change waits and no update runs. */
  idle(): Promise<void>;
  /** Stops noticing changes, lets the running update finish (never half of one), and releases the folder. */
  close(): Promise<void>;
}

export async function startLive(options: LiveOptions): Promise<LiveSession> {
  const { config, now = Date.now } = options;
  // A build's summary (a dozen lines of sizes and routes) with every update would bury the log: under --verbose only.
  const logger: Logger = {
    ...options.logger,
    info: (stage, message) => (stage === 'summary' ? options.logger.debug?.(stage, message) : options.logger.info(stage, message)),
  };
  if (config.endpoint === null) throw createBuildError(BuildErrors.LiveNeedsEndpoint, []);
  const lock = await lockOutput(config.outDir, { for: 'live', leaseMs: LEASE_MS });
  // The lease is renewed while the process runs; once lost (this process hung past it and another took
  // over), this one stops updating, and ends.
  let leaseLost = false;
  const renewing = setInterval(() => {
    void lock.renew().then(
      (held) => {
        if (held || leaseLost) return;
        leaseLost = true;
        logger.error(`[live] the lease on ${lock.file} was taken over by another site live: this one stops publishing and ends`);
        void session.close().then(() => options.onStop?.('lease lost'));
      },
      (error: unknown) => logger.warn('live', `could not renew the lease on ${lock.file} (${describeCause(error)}); trying again`),
    );
  }, LEASE_RENEW_MS);
  renewing.unref();
  // The bucket's listing and the folder's hashes are kept between publishes: an edit's publish then
  // reads and asks for little more than what changed (publish/remembering-store.ts, publish/local.ts).
  const store: RememberingStore | null = options.publish ? createRememberingStore(createS3Store(options.publish)) : null;
  // What a publish writes goes through this: latest.json and deletions only while the lease holds,
  // asked again at most once a second (the timer above renews it every 10 s).
  let heldAt = 0;
  const stillHeld = async (): Promise<boolean> => {
    if (leaseLost) return false;
    if (now() - heldAt < 1000) return true;
    const held = await lock.renew();
    if (held) heldAt = now();
    return held;
  };
  const leaseTaken = (): Error => createBuildError(BuildErrors.LiveLocked, [config.outDir, `the lease on ${lock.file} was taken over`]);
  const publishStore = store && leaseGuardedStore(store, stillHeld, leaseTaken);
  const hashes: FileHashes = new Map();
  const checkedRecords: CheckedRecords = new Map();
  // The folder's state, read while the process waits for the next change, not when the change comes.
  const states = createStateMemory(config);
  // Whether the bucket holds what the folder holds: an update whose build changed nothing publishes only if not.
  let inBucket = false;
  // The stage the last update failed in, for /health (its message goes to the log).
  let failing: FailedStage | null = null;
  // The change feed, and where it stood when the last good build asked it: an update first asks the feed
  // what changed since (milliseconds, where a build that finds nothing takes a second at 10,000 pages).
  const { changeFeed } = await loadChangeFeed();
  const feedClient = changeFeed
    ? createGraphQLClient({
        endpoint: config.endpoint,
        name: 'changes',
        retries: 0,
        timeoutMs: 5_000,
        // As the build's own client (content/source.ts), which asks the same feed.
        getToken: () => config.token,
      })
    : null;
  let lastCursor: string | null = null;
  // The code this process runs is the code it loaded: were the files on disk to change (a deploy by
  // copying files), a build would render with the old modules and bundle the new client. It ends instead.
  const fingerprint = options.codeFingerprint ?? (() => generatorFingerprint(config));
  const loadedCode = await fingerprint();
  let stopping = false;
  // When the publish last walked the whole folder; in between, the build's list of what it wrote is enough.
  let walkedAt = 0;

  /** True when the feed says nothing changed since the last good build, which the bucket holds. */
  const nothingSince = async (): Promise<boolean> => {
    if (!changeFeed || !feedClient || lastCursor === null || (store && !inBucket)) return false;
    const answer = await readChangeFeed(feedClient, changeFeed, lastCursor, () => undefined);
    return !!answer && !answer.expired && answer.changes.length === 0;
  };

  const update = async (batch: Batch): Promise<void> => {
    const started = now();
    // Where the update is: the stage /health names should it fail.
    let stage: 'backend' | 'build' | 'publish' = 'build';
    const what = `${batch.reasons.join('; ')}${batch.changes > batch.reasons.length ? ` and ${batch.changes - batch.reasons.length} more` : ''}`;
    logger.info('live', `updating (${what})${batch.attempt > 0 ? `, attempt ${batch.attempt + 1}` : ''}`);
    try {
      if (stopping) return;
      if ((await fingerprint()) !== loadedCode) {
        stopping = true;
        logger.error(
          `[live] the code or options in ${config.root} changed since this process loaded them: it ends without building, so that its supervisor starts it again with the new code (docs/live.md)`,
        );
        void session.close().then(() => options.onStop?.('code changed'));
        return;
      }
      stage = 'backend';
      if (await nothingSince()) {
        metrics.unchanged++;
        metrics.updates.ok++;
        failing = null;
        logger.info('live', 'nothing to update: the change feed has no change since the last build');
        return;
      }
      // A folder without a saved state renders every page: in a process of its own, whose memory (a
      // full build's, 500 MiB at 10,000 pages) goes with it, rather than in this one, which keeps it.
      const whole = options.childBuild && !hasBuildState(config.cacheDir, config.outDir);
      stage = 'build';
      const result = await (
        whole
          ? buildInChild(options.childBuild!, config.endpoint!, config.outDir, logger)
          : build(config, { logger, states, saveCachesLater: true })
      ).catch((error: unknown) => {
        metrics.failures.build++;
        throw error;
      });
      const changes = result.report.changes;
      const changed = !changes || changes.mode === 'full' || changes.written.length > 0 || changes.removed.length > 0;
      // An earlier attempt's build changed the folder and its publish failed: the bucket still lacks that.
      const publishing = store !== null && (changed || !inBucket);
      // The state for the next update: saved once this one is in the bucket (or failed to get there), then
      // read while the process waits for the next change. A state that cannot be saved costs the next
      // update time (the state went before the commit: it renders every page), not this one.
      const saveState = async (): Promise<void> => {
        try {
          await result.saveCaches?.();
        } catch (error) {
          logger.warn(
            'live',
            `could not save the build state in ${config.cacheDir} (${describeCause(error)}); the next update renders every page`,
          );
        } finally {
          states.readAhead();
        }
      };
      // The moment the edit is live: latest.json names the new build (the publish deletes what is no longer listed after).
      let liveAt: number | null = null;
      const announce = (at: number): void =>
        logger.info(
          'live',
          `live in ${formatDuration(at - batch.firstAtMs)} from the first change noticed (${plural(batch.changes, 'change')}; update ${formatDuration(at - started)})${publishing ? `: published to ${store!.location}` : ''}`,
        );
      if (publishing) {
        try {
          stage = 'publish';
          // Another process may hold the folder now (this one hung past its lease): it publishes, not this one.
          if (!(await stillHeld())) throw leaseTaken();
          // Right after this process's own update of a folder it published whole: only what the build wrote is read again.
          const walk = !inBucket || !changes || changes.mode === 'full' || now() - walkedAt > WALK_EVERY_MS;
          inBucket = false;
          await publish(options.publish!, {
            logger,
            store: publishStore!,
            hashes,
            checkedRecords,
            changed: walk ? undefined : changes!,
            onLive: () => announce((liveAt = now())),
          }).catch((error: unknown) => {
            metrics.failures.publish++;
            throw error;
          });
          inBucket = true;
          if (walk) walkedAt = now();
        } catch (error) {
          // Failing from now on, not once the state is saved: /health says so as soon as the publish failed.
          failing = failedStage(error, stage);
          await saveState();
          throw error;
        }
      }
      const live = liveAt ?? now();
      lastCursor = result.feedCursor;
      const wentLive = changed || publishing || !metrics.lastPublished;
      if (wentLive) metrics.lastPublished = { buildId: result.buildId, atMs: live };
      else metrics.unchanged++;
      metrics.updates.ok++;
      // The update's whole time, the publish's deletions included; the lag below ends when the edit is live.
      observe(metrics.duration, (now() - started) / 1000);
      failing = null;
      if (!wentLive) logger.info('live', `nothing to publish: no page or file changed (${formatDuration(live - started)})`);
      else {
        const lagS = (live - batch.firstAtMs) / 1000;
        observe(metrics.lag, lagS);
        metrics.lastLagS = lagS;
        if (liveAt === null) announce(live);
      }
      await saveState();
    } catch (error) {
      metrics.updates.failed++;
      // /health names the stage; the message, which may name the backend, the bucket or a path, is logged (onFailure below).
      failing = failedStage(error, stage);
      throw error;
    }
  };

  const queue = createUpdateQueue(update, {
    debounceMs: options.debounceMs,
    retryMs: options.retryMs,
    maxRetryMs: options.maxRetryMs,
    now,
    onFailure: (error, batch, retryInMs) =>
      logger.warn(
        'live',
        `the update failed (${describeCause(error)}); nothing was published half-way, and the site stays as it was. Trying again in ${formatDuration(retryInMs)} (failure ${batch.attempt + 1})`,
      ),
  });
  const metrics = createLiveMetrics(now(), queue);
  const notice = (reason: string, atMs = now()): void => queue.add(reason, atMs);

  // Refused calls are logged, but a flood of them is not a flood of lines: at most 10 a minute, then a count.
  const refusals = rateLimitedWarnings(logger, now);
  let server: Awaited<ReturnType<typeof startLiveServer>> | null = null;
  let feed: { close(): void } | null = null;
  try {
    server = await startLiveServer({
      host: options.host,
      port: options.port,
      metrics,
      health: () => ({ failing }),
      secret: options.webhookSecret,
      onWebhook: (atMs) => notice('a webhook call', atMs),
      onRefused: (reason, from) => refusals.note(`refused a webhook call from ${from}: ${reason}`),
      now,
    });
    logger.info(
      'live',
      `keeping ${config.outDir} up to date${store ? ` and published to ${store.location}` : ''}; health, metrics${options.webhookSecret ? ' and the webhook' : ''} at ${server.url}`,
    );
    // The first update converges: whatever changed while no process ran.
    notice('start: whatever changed since the last build');
    if (changeFeed && options.pollIntervalMs > 0) {
      feed = followContent(config.endpoint, changeFeed, (what) => notice(what), {
        intervalMs: options.pollIntervalMs,
        onProblem: (message) => logger.warn('live', message),
        token: config.token,
      });
      logger.info('live', `asking the backend's change feed every ${formatDuration(options.pollIntervalMs)}`);
    } else
      logger.info(
        'live',
        changeFeed
          ? 'not polling the change feed (--poll-interval 0): updates start from the webhook only'
          : 'the site has no change feed: updates start from the webhook only, and each compares every page',
      );
  } catch (error) {
    clearInterval(renewing);
    await server?.close();
    store?.close();
    await lock.release();
    throw error;
  }

  let closing: Promise<void> | null = null;
  const session: LiveSession = {
    url: server.url,
    metrics,
    idle: () => queue.idle(),
    close: () =>
      (closing ??= (async () => {
        feed?.close();
        clearInterval(renewing);
        if (queue.running) logger.info('live', 'stopping: the running update finishes first');
        await queue.stop();
        await server.close();
        store?.close();
        await lock.release();
        logger.info('live', 'stopped');
      })()),
  };
  return session;
}

/** How long the folder's lease lasts unrenewed before another `site live` may take it over (a pod rescheduled after a crash). */
const LEASE_MS = 30_000;
/** The longest a publish goes on the build's own list of what it wrote before it walks the whole folder again. */
const WALK_EVERY_MS = 10 * 60 * 1000;
/** How often the lease is renewed: three times within it, so one slow disk write does not lose it. */
const LEASE_RENEW_MS = 10_000;
/** How much of a child build's output is kept for its error message (it is logged as it comes). */
const CHILD_OUTPUT_TAIL_CHARS = 64 * 1024;

/**
 * Runs `site build` as a process of its own (`command`: node and its arguments), its warnings and errors
 * passed on as the build's; its result as far as an update needs it: a full build, and its build id.
 */
async function buildInChild(
  command: readonly string[],
  endpoint: string,
  outDir: string,
  logger: Logger,
): Promise<{ buildId: string; report: { changes: null }; feedCursor: null; saveCaches?: undefined }> {
  logger.info('live', `no saved state for ${outDir}: every page renders, in a process of its own so this one stays small`);
  // Its standard input is a pipe this process never writes to; the build ends when it closes
  // (SITE_EXIT_WITH_STDIN, childBuildEnvironment), which the system does when this process ends, even
  // by SIGKILL or the out-of-memory killer.
  const child = spawn(command[0]!, command.slice(1), {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: childBuildEnvironment(endpoint),
  });
  child.stdin!.on('error', () => {});
  // Should this process end while the build runs (a second SIGTERM or Ctrl-C, an uncaught error, SIGKILL),
  // the build ends with it: left running, it would hold the output's lock (and write the folder) until done,
  // and a new process for the folder would be refused with OutputLocked. The pipe closes as this process
  // ends, however it ends, and the build then exits, releasing its lock (cli/commands/build.ts). Closed here
  // at once when this process exits by itself; never SIGKILL, which would leave the lock behind for the
  // next build to find stale (and on another machine sharing the folder, to be deleted by hand). The
  // folder is safe either way (staging, then a swap that a later build finishes).
  const stop = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.stdin?.destroy();
  };
  process.once('exit', stop);
  // Its warnings and errors are logged as they come; only the last 64 KiB are kept, for the error message.
  const output = createOutputTail(CHILD_OUTPUT_TAIL_CHARS, (line) => logger.warn('build', line));
  const [stdout, stderr] = [output.reader(), output.reader()];
  child.stdout!.on('data', (chunk: Buffer) => stdout.write(chunk));
  child.stderr!.on('data', (chunk: Buffer) => stderr.write(chunk));
  const code = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', (exit) => resolve(exit));
  }).finally(() => process.off('exit', stop));
  stdout.end();
  stderr.end();
  if (code !== 0) throw createBuildError(BuildErrors.LiveBuildFailed, [output.lines().slice(-3).join(' / ') || `exit status ${code}`]);
  const latest = await readLatest(outDir);
  return { buildId: latest.id, report: { changes: null }, feedCursor: null };
}

/**
 * The stage an update failed in, as /health names it: the lease taken over; the backend, when the
 * build's error is one of asking it (or has such a cause); else where the update was.
 */
function failedStage(error: unknown, stage: 'backend' | 'build' | 'publish'): FailedStage {
  if (isBuildError(error) && error.code === BuildErrors.LiveLocked.code) return 'lease';
  if (stage !== 'build') return stage;
  for (let cause: unknown = error, depth = 0; cause && depth < 8; cause = (cause as { cause?: unknown }).cause, depth++) {
    if ((cause as { isGraphQLRequestError?: boolean }).isGraphQLRequestError) return 'backend';
    if (isBuildError(cause) && BACKEND_ERRORS.has(cause.code)) return 'backend';
  }
  return 'build';
}

/** The build's errors that say the backend could not be asked, not that the content or a page failed. */
const BACKEND_ERRORS: ReadonlySet<string> = new Set(
  [BuildErrors.EndpointUnreachable, BuildErrors.EndpointRedirected, BuildErrors.SiteQueryFailed].map((e) => e.code),
);

/** Warnings of the same kind, at most `perMinute` a minute; the ones left out are counted in the next line. */
function rateLimitedWarnings(logger: Logger, now: () => number, perMinute = 10): { note(message: string): void } {
  let windowStart = 0;
  let shown = 0;
  let left = 0;
  return {
    note(message) {
      const at = now();
      if (at - windowStart >= 60_000) {
        windowStart = at;
        shown = 0;
      }
      if (shown >= perMinute) return void left++;
      shown++;
      logger.warn('live', left > 0 ? `${message} (and ${left} more refused calls not shown)` : message);
      left = 0;
    },
  };
}
