import pLimit from 'p-limit';
import type { PageFailure } from './errors.ts';
import { writeSiteFile } from './write.ts';

/** Root-relative media URLs of the embedded content (`/media/...`); absolute URLs are kept as they are. */
const MEDIA_PREFIX = '/media/';

/** Every `/media/...` URL found in any string of the given values. */
export function collectMediaUrls(values: Iterable<unknown>): Set<string> {
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      if (value.startsWith(MEDIA_PREFIX)) found.add(value.split(/[?#]/)[0] ?? value);
      // Rich text may reference media inside its HTML.
      else if (value.includes(`"${MEDIA_PREFIX}`)) for (const m of value.matchAll(/"(\/media\/[^"?#]+)/g)) if (m[1]) found.add(m[1]);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  for (const v of values) visit(v);
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
          await writeSiteFile(siteDir, decodeURIComponent(url.slice(1)), new Uint8Array(await response.arrayBuffer()));
        } catch (cause) {
          failures.push({ page: url, route: 'media', operation: 'GET ' + source, cause: (cause as Error).message, fix: 'Check that the backend serves this file, or remove the reference from the content.' });
        }
      }),
    ),
  );
  return failures;
}
