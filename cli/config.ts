import { resolve } from 'node:path';
import { BuildErrors, createBuildError } from './errors.ts';
import type { LogLevel } from './logger.ts';

/** Options a user may set (flags, environment); every field is optional. */
export interface UserConfig {
  /** GraphQL endpoint URL. Env: GRAPHQL_ENDPOINT. @default the embedded sample backend on a free 127.0.0.1 port */
  endpoint?: string;
  /** Bearer token sent to the endpoint at build time. Env: GRAPHQL_TOKEN. @default none */
  token?: string;
  /** Output folder. @default 'dist' */
  outDir?: string;
  /** Absolute URL the site is published at, for canonical URLs, sitemap and feeds. Env: SITE_URL. @default the backend's `site.url` */
  baseUrl?: string;
  /** GraphQL requests in flight at once. @default 8 */
  concurrency?: number | string;
  /** Milliseconds before one GraphQL request is abandoned. @default 30000 */
  timeoutMs?: number | string;
  /** Extra attempts for transient GraphQL failures. @default 3 */
  retries?: number | string;
  /** Milliseconds between the browser's checks for a newer build. @default 3600000 (one hour) */
  buildCheckInterval?: number | string;
  /** @default 'info' */
  logLevel?: LogLevel;
}

/** Fully-defaulted, validated, frozen configuration; stages take only this. */
export interface ResolvedConfig {
  readonly endpoint: string | null;
  readonly token: string | null;
  readonly outDir: string;
  readonly baseUrl: string | null;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly buildCheckInterval: number;
  readonly logLevel: LogLevel;
  /** Seconds since the epoch from SOURCE_DATE_EPOCH, for reproducible builds; null → the clock. */
  readonly sourceDateEpoch: number | null;
  /** Repository root (site/, templates/, runtime/). */
  readonly root: string;
}

export const DEFAULTS = {
  outDir: 'dist',
  concurrency: 8,
  timeoutMs: 30_000,
  retries: 3,
  buildCheckInterval: 3_600_000,
  logLevel: 'info',
} as const satisfies Partial<ResolvedConfig>;

/** Validates user options and the environment once, and fills in defaults. Throws InvalidOption (exit 2). */
export function resolveConfig(user: UserConfig, env: Record<string, string | undefined> = process.env, cwd = process.cwd()): ResolvedConfig {
  const endpoint = user.endpoint ?? env.GRAPHQL_ENDPOINT;
  const baseUrl = user.baseUrl ?? env.SITE_URL;
  const epoch = env.SOURCE_DATE_EPOCH;
  return Object.freeze({
    endpoint: endpoint ? checkUrl(user.endpoint ? '--endpoint' : 'GRAPHQL_ENDPOINT', endpoint) : null,
    token: user.token ?? env.GRAPHQL_TOKEN ?? null,
    outDir: resolve(cwd, user.outDir ?? DEFAULTS.outDir),
    baseUrl: baseUrl ? checkUrl(user.baseUrl ? '--base-url' : 'SITE_URL', baseUrl).replace(/\/+$/, '') : null,
    concurrency: checkInteger('--concurrency', user.concurrency ?? DEFAULTS.concurrency, 1, 256),
    timeoutMs: checkInteger('--timeout', user.timeoutMs ?? DEFAULTS.timeoutMs, 1, 600_000),
    retries: checkInteger('--retries', user.retries ?? DEFAULTS.retries, 0, 20),
    buildCheckInterval: checkInteger('--build-check-interval', user.buildCheckInterval ?? DEFAULTS.buildCheckInterval, 1000, 2 ** 31 - 1),
    logLevel: user.logLevel ?? DEFAULTS.logLevel,
    sourceDateEpoch: epoch === undefined || epoch === '' ? null : checkInteger('SOURCE_DATE_EPOCH', epoch, 0, 2 ** 40),
    root: resolve(new URL('..', import.meta.url).pathname),
  });
}

/** Validates an integer option in p-limit's style. */
export function checkInteger(name: string, value: number | string, min: number, max: number): number {
  const n = typeof value === 'number' ? value : /^-?\d+$/.test(value.trim()) ? Number(value) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    throw createBuildError(BuildErrors.InvalidOption, [name, String(value), `an integer from ${min} to ${max}`]);
  }
  return n;
}

// --- internal ---

function checkUrl(name: string, value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw createBuildError(BuildErrors.InvalidOption, [name, value, 'an absolute http(s) URL such as http://127.0.0.1:4000/graphql']);
  }
  return url.href;
}
