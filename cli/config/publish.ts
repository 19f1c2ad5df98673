import { resolve } from 'node:path';
import { checkInteger, DEFAULTS } from './config.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import type { LogLevel } from '../terminal/logger.ts';
import { readPublishKey } from './publish-key.ts';
import { isBuildId } from '../publish/policy.ts';
import { createRecordAuth, type RecordAuth } from '../publish/record-auth.ts';

/**
 * Options of `site publish`. Credentials are not options: the S3 client reads them from the standard
 * AWS environment (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, profiles), so they
 * never pass through flags, logs or this object. Nor does SITE_PUBLISH_KEY, the key publish signs its
 * records with (cli/config/publish-key.ts): it is read from the environment only.
 */
export interface PublishOptions {
  /** Folder holding the build to publish (or, for a rollback, that build's output). @default 'dist' */
  outDir?: string;
  /** Bucket name. Required. */
  bucket?: string;
  /** Key prefix inside the bucket; the site lives under `{prefix}/`. @default '' (the bucket root) */
  prefix?: string;
  /** S3-compatible endpoint. Env: AWS_ENDPOINT_URL_S3, AWS_ENDPOINT_URL. @default AWS S3 itself */
  endpointUrl?: string;
  /** How many builds (the live one included) keep every file they reference. @default 3 */
  keepBuilds?: number | string;
  /** At most this many deletions per run; the rest wait for the next run. 0 deletes nothing. @default 256 */
  maxDeletes?: number | string;
  /** Requests in flight at once. @default 8 */
  concurrency?: number | string;
  /** List every action and change nothing. @default false */
  dryRun?: boolean;
  /** Publish into a bucket or prefix that holds objects no published build lists (they are never deleted or written over). @default false */
  allowForeignObjects?: boolean;
  /**
   * Take the build records already in the bucket as publish's own whatever their signature, and sign
   * them with SITE_PUBLISH_KEY: once, after upgrading from a version that did not sign them or after
   * changing the key, when nobody else can have written there. @default false
   */
  adoptRecords?: boolean;
  /** Point latest.json back to this earlier build instead of publishing. @default none */
  rollback?: string;
  /** @default 'info' */
  logLevel?: LogLevel;
}

/** Fully-defaulted, validated, frozen publish configuration. */
export interface PublishConfig {
  readonly outDir: string;
  readonly bucket: string;
  /** Without leading or trailing slashes; '' for the bucket root. */
  readonly prefix: string;
  readonly endpointUrl: string | null;
  /** Env AWS_REGION or AWS_DEFAULT_REGION; S3-compatible stores mostly ignore it. @default 'us-east-1' */
  readonly region: string;
  readonly keepBuilds: number;
  readonly maxDeletes: number;
  readonly concurrency: number;
  readonly dryRun: boolean;
  readonly allowForeignObjects: boolean;
  readonly adoptRecords: boolean;
  readonly rollback: string | null;
  readonly logLevel: LogLevel;
  /** Signs and checks publish's records in this bucket and prefix with SITE_PUBLISH_KEY (which it holds out of sight). */
  readonly records: RecordAuth;
}

/** Defaults of the publish options (the build's `dist` folder, the bucket root, three builds). */
export const PUBLISH_DEFAULTS = {
  outDir: DEFAULTS.outDir,
  prefix: '',
  keepBuilds: 3,
  maxDeletes: 256,
  concurrency: 8,
  region: 'us-east-1',
} as const;

/** Validates publish options and the environment once. Throws InvalidOption or PublishKeyMissing (exit 2). */
export function resolvePublishConfig(
  user: PublishOptions,
  env: Record<string, string | undefined> = process.env,
  cwd = process.cwd(),
): PublishConfig {
  const endpoint = user.endpointUrl ?? env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const bucket = checkBucket(user.bucket);
  const prefix = checkPrefix(user.prefix ?? PUBLISH_DEFAULTS.prefix);
  return Object.freeze({
    outDir: resolve(cwd, user.outDir ?? PUBLISH_DEFAULTS.outDir),
    bucket,
    prefix,
    endpointUrl: endpoint
      ? checkEndpoint(user.endpointUrl ? '--endpoint-url' : env.AWS_ENDPOINT_URL_S3 ? 'AWS_ENDPOINT_URL_S3' : 'AWS_ENDPOINT_URL', endpoint)
      : null,
    region: env.AWS_REGION || env.AWS_DEFAULT_REGION || PUBLISH_DEFAULTS.region,
    keepBuilds: checkInteger('--keep-builds', user.keepBuilds ?? PUBLISH_DEFAULTS.keepBuilds, 1, 100),
    maxDeletes: checkInteger('--max-deletes', user.maxDeletes ?? PUBLISH_DEFAULTS.maxDeletes, 0, 1_000_000),
    concurrency: checkInteger('--concurrency', user.concurrency ?? PUBLISH_DEFAULTS.concurrency, 1, 64),
    dryRun: user.dryRun ?? false,
    allowForeignObjects: user.allowForeignObjects ?? false,
    adoptRecords: user.adoptRecords ?? false,
    rollback: user.rollback === undefined ? null : checkRollback(user.rollback),
    logLevel: user.logLevel ?? DEFAULTS.logLevel,
    records: createRecordAuth(readPublishKey(env), { bucket, prefix }),
  });
}

// --- internal ---

function invalid(name: string, value: string, expected: string): never {
  throw createBuildError(BuildErrors.InvalidOption, [name, value, expected]);
}

function checkBucket(value: string | undefined): string {
  // S3's own naming rule; S3-compatible stores accept a superset.
  if (value === undefined || !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(value))
    invalid('--bucket', value ?? '', 'a bucket name (3 to 63 lowercase letters, digits, dots and hyphens)');
  return value;
}

function checkPrefix(value: string): string {
  const trimmed = value.replace(/^\/+|\/+$/g, '');
  if (trimmed.split('/').some((part) => part === '' || part === '.' || part === '..') && trimmed !== '')
    invalid('--prefix', value, 'a key prefix such as `site` or `sites/institute`');
  return trimmed;
}

function checkEndpoint(name: string, value: string): string {
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    invalid(name, value, 'an absolute http(s) URL such as http://127.0.0.1:9000');
  return url.href.replace(/\/+$/, '');
}

function checkRollback(value: string): string {
  if (!isBuildId(value)) invalid('--rollback', value, 'a build id such as 7e01c106f30a51ea');
  return value;
}
