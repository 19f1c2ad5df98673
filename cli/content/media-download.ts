import { open } from 'node:fs/promises';
import { backoffDelay, isTransientStatus, retryAfterMs } from '../../runtime/shared/graphql.ts';
import { writeFileAtomic } from '../output/write.ts';

/**
 * Downloads one media file as carefully as the build's GraphQL requests (issue 16.3): the same retry
 * policy (network errors, timeouts, 408, 429 and 5xx, Retry-After), redirects followed only within the
 * backend's own origin and checked at every hop, and a size cap enforced while the body streams to a
 * temporary file, so no file is ever held whole in memory and an oversized one never lands.
 */

export interface DownloadPolicy {
  /** The backend's origin: the only origin a download or a redirect may go to. */
  origin: string;
  /** Milliseconds for one attempt, body included. */
  timeoutMs: number;
  /** Extra attempts for transient failures. */
  retries: number;
  /** Milliseconds before the first retry (doubling, with jitter), unless Retry-After says otherwise. */
  retryDelayMs: number;
  /** Largest body in bytes. */
  maxBytes: number;
  /** Sent with every request; only ever to `origin` (redirects elsewhere are refused before they are followed). */
  headers?: Readonly<Record<string, string>>;
  /** Aborts every download under way and any retry (the build failed, or needs no more media). */
  signal?: AbortSignal;
  fetchImpl?: typeof fetch;
}

export interface Downloaded {
  contentType: string | null;
  cacheControl: string | null;
  bytes: number;
  /** The body, when it was downloaded into memory (no file given). */
  body: Buffer | null;
}

/** A failure that another attempt cannot mend (a refused redirect, a file over the cap, a 404). */
export class MediaRefused extends Error {}

const MAX_REDIRECTS = 5;

/**
 * Downloads `source` into `file` (complete or not there at all), or into memory when `file` is null (a
 * file the caller reads whole anyway, such as an SVG it cleans: no temporary file to write and read
 * back); the size cap holds either way. Throws MediaRefused or the last transient error.
 */
export async function downloadMedia(source: string, file: string | null, policy: DownloadPolicy): Promise<Downloaded> {
  for (let attempt = 1; ; attempt++) {
    let wait: number | null;
    try {
      return await attemptDownload(source, file, policy);
    } catch (error) {
      if (error instanceof MediaRefused || attempt > policy.retries || policy.signal?.aborted) throw error;
      wait =
        error instanceof TransientStatus
          ? (error.retryAfter ?? backoffDelay(attempt, policy.retryDelayMs))
          : backoffDelay(attempt, policy.retryDelayMs);
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

// --- internal ---

class TransientStatus extends Error {
  constructor(
    status: number,
    readonly retryAfter: number | null,
  ) {
    super(`HTTP ${status}`);
  }
}

async function attemptDownload(source: string, file: string | null, policy: DownloadPolicy): Promise<Downloaded> {
  const fetchImpl = policy.fetchImpl ?? fetch;
  const signal = policy.signal
    ? AbortSignal.any([AbortSignal.timeout(policy.timeoutMs), policy.signal])
    : AbortSignal.timeout(policy.timeoutMs);
  let url = source;
  let response: Response;
  for (let hop = 0; ; hop++) {
    if (new URL(url).origin !== policy.origin)
      throw new MediaRefused(`a redirect led to ${new URL(url).origin}, which is not the backend's origin ${policy.origin}`);
    try {
      response = await fetchImpl(url, { redirect: 'manual', signal, headers: policy.headers });
    } catch (error) {
      throw signal.aborted ? new Error(`no complete answer within ${policy.timeoutMs} ms`) : error;
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status > 399 || !location) break;
    await response.body?.cancel();
    if (hop >= MAX_REDIRECTS) throw new MediaRefused(`more than ${MAX_REDIRECTS} redirects`);
    url = new URL(location, url).href;
  }
  if (!response.ok) {
    await response.body?.cancel();
    if (isTransientStatus(response.status)) throw new TransientStatus(response.status, retryAfterMs(response.headers));
    throw new MediaRefused(`HTTP ${response.status}`);
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > policy.maxBytes) {
    await response.body?.cancel();
    throw new MediaRefused(tooLarge(declared, policy.maxBytes));
  }
  const { bytes, body } = await streamBody(response, file, policy.maxBytes, signal, policy.timeoutMs);
  return { contentType: response.headers.get('content-type'), cacheControl: response.headers.get('cache-control'), bytes, body };
}

/** Writes the body to `file` (writeFileAtomic), or keeps it (null), stopping as soon as it passes `maxBytes`. */
async function streamBody(
  response: Response,
  file: string | null,
  maxBytes: number,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<{ bytes: number; body: Buffer | null }> {
  let bytes = 0;
  const chunks = (response.body ?? []) as unknown as AsyncIterable<Uint8Array>;
  try {
    if (file === null) {
      const kept: Uint8Array[] = [];
      for await (const chunk of chunks) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) throw new MediaRefused(tooLarge(bytes, maxBytes));
        kept.push(chunk);
      }
      return { bytes, body: Buffer.concat(kept) };
    }
    await writeFileAtomic(file, async (temp) => {
      const handle = await open(temp, 'w');
      try {
        for await (const chunk of chunks) {
          bytes += chunk.byteLength;
          if (bytes > maxBytes) throw new MediaRefused(tooLarge(bytes, maxBytes));
          await handle.write(chunk);
        }
      } finally {
        await handle.close();
      }
    });
    return { bytes, body: null };
  } catch (error) {
    if (error instanceof MediaRefused) {
      await response.body?.cancel().catch(() => undefined);
      throw error;
    }
    throw signal.aborted ? new Error(`no complete answer within ${timeoutMs} ms`) : error;
  }
}

function tooLarge(bytes: number, max: number): string {
  return `the file is larger than --media-max-bytes (${max} bytes; ${bytes} or more arrived)`;
}
