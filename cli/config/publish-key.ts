import { BuildErrors, createBuildError } from '../errors/errors.ts';

/** The environment variable holding the key `site publish` signs and checks its build records with. */
export const PUBLISH_KEY_ENV = 'SITE_PUBLISH_KEY';

/** Fewer characters than this are refused: `openssl rand -base64 32` gives 44. */
export const PUBLISH_KEY_MIN_LENGTH = 32;

/**
 * Reads SITE_PUBLISH_KEY, the secret the site's CI holds for publishing: publish signs every record it
 * writes to the bucket with it and trusts, for deletion and retention, only records that carry its
 * signature. Without it publish cannot tell its own records from planted ones, so it refuses to run
 * (PublishKeyMissing, exit 2). The value never appears in a message.
 */
export function readPublishKey(env: Record<string, string | undefined>): Buffer {
  const value = env[PUBLISH_KEY_ENV] ?? '';
  if (value.trim() === '') throw createBuildError(BuildErrors.PublishKeyMissing, [`${PUBLISH_KEY_ENV} is not set`]);
  if (value.length < PUBLISH_KEY_MIN_LENGTH)
    throw createBuildError(BuildErrors.PublishKeyMissing, [
      `${PUBLISH_KEY_ENV} has ${value.length} characters, fewer than the ${PUBLISH_KEY_MIN_LENGTH} needed`,
    ]);
  return Buffer.from(value, 'utf8');
}
