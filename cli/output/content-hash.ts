import { createHash } from 'node:crypto';

/** The hash of an extra output file's content (a feed, a calendar, a search index file), which the build state keeps to write it again only when it changed. */
export function contentHash(content: string | Uint8Array): string {
  return createHash('sha1').update(content).digest('base64url');
}
