import { posix } from 'node:path';
import pLimit from 'p-limit';
import type { PageFailure } from './errors.ts';
import { writeSiteFile } from './write.ts';

/** Every `/media/...` URL in the given JSON texts (page data, site data), rich-text HTML included. */
export function collectMediaUrls(jsonTexts: Iterable<string>): Set<string> {
  const found = new Set<string>();
  // In JSON a media URL is either a whole string ("/media/...") or an attribute inside HTML (=\"/media/...).
  const pattern = /"(\/media\/[^"\\?#]+)|\\"(\/media\/[^"\\?#]+)/g;
  for (const text of jsonTexts) {
    for (const m of text.matchAll(pattern)) found.add((m[1] ?? m[2])!);
  }
  return found;
}

/** Downloads media from the backend's origin into the site, so the published output is self-contained. */
export async function copyMedia(urls: Iterable<string>, origin: string, siteDir: string, concurrency: number, fetchImpl: typeof fetch = fetch): Promise<PageFailure[]> {
  const limit = pLimit(concurrency);
  const failures: PageFailure[] = [];
  await Promise.all(
    [...urls].sort().map((url) =>
      limit(async () => {
        const source = new URL(url, origin).href;
        try {
          const response = await fetchImpl(source, { signal: AbortSignal.timeout(30_000) });
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          // An encoded slash or dot segment must not move a file out of media/ (e.g. over the site's own scripts).
          const file = posix.normalize(decodeURIComponent(url.slice(1)));
          if (!file.startsWith('media/')) throw new Error(`the media URL resolves outside media/ (${file})`);
          await writeSiteFile(siteDir, file, new Uint8Array(await response.arrayBuffer()));
        } catch (cause) {
          failures.push({ page: url, route: 'media', operation: 'GET ' + source, cause: (cause as Error).message, fix: 'Check that the backend serves this file, or remove the reference from the content.' });
        }
      }),
    ),
  );
  return failures;
}
