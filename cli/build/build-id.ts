import { createHash } from 'node:crypto';

/**
 * A build id derived from the inputs (code and content): rebuilding unchanged inputs gives the same
 * id, so caches and open tabs are not invalidated for nothing. URL- and file-safe.
 */
export function createBuildId(inputs: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const input of inputs) hash.update(input).update('\0');
  return hash.digest('hex').slice(0, 16);
}
