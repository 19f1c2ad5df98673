import { BuildErrors, createBuildError, isBuildError, type BuildError } from '../errors/errors.ts';

/**
 * Turns what the S3 client throws into catalogue errors with a fix: a missing bucket, refused
 * credentials and an unreachable endpoint each need a different action from the person running CI.
 */

/** What was being done when the error happened, for the message. */
export interface StorageOperation {
  /** e.g. `PutObject`. */
  operation: string;
  /** Full key in the bucket, or '' for bucket-wide requests. */
  key: string;
  bucket: string;
  /** The endpoint as the user named it, or `AWS S3 (region)`. */
  endpoint: string;
}

/** The fields of an AWS SDK error this module reads; anything else is passed through as text. */
interface SdkErrorShape {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

const CREDENTIAL_ERRORS = new Set([
  'InvalidAccessKeyId',
  'SignatureDoesNotMatch',
  'AccessDenied',
  'ExpiredToken',
  'InvalidToken',
  'TokenRefreshRequired',
  'Forbidden',
]);

/** HTTP status of an SDK error, or undefined when no answer arrived (network failure, timeout). */
export function statusOf(error: unknown): number | undefined {
  const status = (error as SdkErrorShape | null)?.$metadata?.httpStatusCode;
  return typeof status === 'number' ? status : undefined;
}

/** The SDK's error name (`NoSuchKey`, `NotFound`, …), or ''. */
export function errorName(error: unknown): string {
  const name = (error as SdkErrorShape | null)?.name;
  return typeof name === 'string' ? name : '';
}

/** True when the error says the key does not exist (GET answers NoSuchKey, HEAD a bare 404). */
export function isMissingKey(error: unknown): boolean {
  const name = errorName(error);
  return name === 'NoSuchKey' || (statusOf(error) === 404 && name !== 'NoSuchBucket');
}

/** Maps an SDK error to StorageBucketMissing, StorageCredentialsMissing, StorageCredentialsRefused, StorageUnreachable or StorageRequestFailed. */
export function toStorageError(error: unknown, op: StorageOperation): BuildError {
  if (isBuildError(error)) return error;
  const name = errorName(error);
  const status = statusOf(error);
  const cause = describeSdkError(error);
  if (name === 'NoSuchBucket') return createBuildError(BuildErrors.StorageBucketMissing, [op.bucket, op.endpoint], { cause: error });
  // The SDK's credential chain found nothing to sign with; no request was sent.
  if (name === 'CredentialsProviderError') return createBuildError(BuildErrors.StorageCredentialsMissing, [cause], { cause: error });
  if (CREDENTIAL_ERRORS.has(name) || status === 401 || status === 403) {
    return createBuildError(BuildErrors.StorageCredentialsRefused, [op.endpoint, cause], { cause: error });
  }
  if (status === undefined) return createBuildError(BuildErrors.StorageUnreachable, [op.endpoint, cause], { cause: error });
  return createBuildError(BuildErrors.StorageRequestFailed, [op.operation, op.key || op.bucket, cause], { cause: error });
}

/** One line for an SDK error: its name, network code and message, and the HTTP status when there was one. */
export function describeSdkError(error: unknown): string {
  const e = (error ?? {}) as SdkErrorShape;
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' && e.message !== '' ? e.message : String(error);
  const status = statusOf(error);
  const label = [errorName(error), code].filter((part, i, all) => part !== '' && part !== 'Error' && all.indexOf(part) === i).join(' ');
  // AggregateError (several addresses tried) carries the useful message on its parts.
  const inner = error instanceof AggregateError && error.errors[0] instanceof Error ? error.errors[0].message : '';
  const text = inner && !message.includes(inner) ? `${message} ${inner}`.trim() : message;
  return `${label ? `${label}: ` : ''}${text}${status !== undefined ? ` (HTTP ${status})` : ''}`;
}
