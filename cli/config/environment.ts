import { BuildErrors, createBuildError } from '../errors/errors.ts';

/**
 * The environment variables that are not build options (those are resolveConfig's, config.ts): what the
 * terminal is, a file `site dev` hands the embedded backend, and a test hook. Read here, so that cli/config/
 * is the one place the CLI reads its environment (tests/unit/architecture/environment.test.ts).
 */

type Environment = Readonly<Record<string, string | undefined>>;

/** What the progress display needs to know of the terminal: whether this is CI (CI set, and not `0` or `false`), and whether it can move its cursor (TERM=dumb cannot). */
export interface TerminalEnvironment {
  ci: boolean;
  dumb: boolean;
}

export function terminalOf(env: Environment = process.env): TerminalEnvironment {
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  return { ci, dumb: env.TERM === 'dumb' };
}

/** CONTENT_OVERRIDES_FILE: content the embedded backend applies over its sample content (backend/content-overrides.ts); null for none. */
export function contentOverridesFile(env: Environment = process.env): string | null {
  return env.CONTENT_OVERRIDES_FILE || null;
}

/**
 * Test hook: `SITE_CRASH_AT=<step>` names the step of the output's lock or swap at which the process kills
 * itself (cli/output/lock.ts crashPoint), as a power cut would, so tests can show each step is recoverable.
 */
export function crashStep(env: Environment = process.env): string | undefined {
  return env.SITE_CRASH_AT;
}

/**
 * Test hook: `SITE_CACHE_NOW=<ms since the epoch>` is the time pruning the build cache takes as now
 * (build/cache-prune.ts), so tests can show what a prune does once entries are past the hour it never
 * touches (a file's ctime cannot be set back). Honoured only under the test runner (`VITEST` set, as
 * Vitest sets it for every process a test starts): left in a CI job's environment it would stop the
 * sweeps or void their grace period. Unset, or outside the tests: the clock.
 */
export function cacheClock(env: Environment = process.env): number | undefined {
  const value = env.SITE_CACHE_NOW;
  if (value === undefined || value === '' || !env.VITEST) return undefined;
  if (!/^\d{1,15}$/.test(value))
    throw createBuildError(BuildErrors.InvalidOption, ['SITE_CACHE_NOW', value, 'milliseconds since the epoch']);
  return Number(value);
}

/**
 * `SITE_EXIT_WITH_STDIN=1`: `site live` starts its full build with this set and the build's standard input
 * a pipe it never writes to. When the pipe closes (site live has ended, killed with SIGKILL or by the
 * out-of-memory killer, which no handler of its own sees), the build ends too rather than run on, holding
 * the output's lock (cli/commands/build.ts). Only `1` turns it on.
 */
export function exitWithStdin(env: Environment = process.env): boolean {
  return env.SITE_EXIT_WITH_STDIN === '1';
}

/** The shortest SITE_LIVE_SECRET `site live` takes: 32 characters, about the 256 bits of the HMAC's key. */
export const WEBHOOK_SECRET_MIN_LENGTH = 32;

/**
 * SITE_LIVE_SECRET: the secret a CMS signs `site live`'s webhook calls with (serve/live/webhook-signature.ts);
 * null when unset, and then the webhook is off. Spaces and line ends around it are not part of it: a
 * secret read from a file (a Kubernetes secret, `$(cat …)`) often ends with a newline, with which no
 * CMS's signature would ever verify. Set but empty (an empty secret file) or short, it is refused: the
 * webhook would be off without a word, or its secret guessed offline from one signed call.
 */
export function liveWebhookSecret(env: Environment = process.env): string | null {
  const raw = env.SITE_LIVE_SECRET;
  if (raw === undefined) return null;
  const value = raw.trim();
  if (value.length < WEBHOOK_SECRET_MIN_LENGTH)
    throw createBuildError(BuildErrors.InvalidOption, [
      'SITE_LIVE_SECRET',
      value === '' ? '(empty)' : `(${value.length} characters)`,
      `a secret of at least ${WEBHOOK_SECRET_MIN_LENGTH} characters, such as the output of \`openssl rand -hex 32\` (unset it to turn the webhook off)`,
    ]);
  return value;
}

/**
 * The environment of the full build `site live` runs as a process of its own: this process's, without what only the webhook and the publish need (the
 * webhook's secret, the record-signing key, the storage's credentials), which a build never uses; and the
 * endpoint, which goes in the environment, not on the command line any user of the machine can read
 * (`ps`), since its URL may carry credentials; and SITE_EXIT_WITH_STDIN, so that the build ends with the process that started it.
 */
export function childBuildEnvironment(endpoint: string, env: Environment = process.env): Environment {
  const kept = Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('AWS_') && !NOT_FOR_THE_BUILD.has(name)));
  return { ...kept, GRAPHQL_ENDPOINT: endpoint, SITE_EXIT_WITH_STDIN: '1' };
}

const NOT_FOR_THE_BUILD = new Set(['SITE_LIVE_SECRET', 'SITE_PUBLISH_KEY']);
