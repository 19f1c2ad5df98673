import { PAYLOAD_VERSION, type Payload } from './shared/contract.ts';
import { payloadUrlFor } from './shared/paths.ts';

/** Why a payload could not be used; every case leads to a full-document load of the page. */
export class PayloadError extends Error {
  readonly reason: 'not-found' | 'unreadable' | 'stale';
  constructor(reason: PayloadError['reason'], path: string, detail: string) {
    super(`Payload for ${path} ${detail}`);
    this.name = 'PayloadError';
    this.reason = reason;
  }
}

export interface PayloadLoader {
  /** Fetches `{path}/_payload.json?{buildId}` once per path; concurrent calls share one request. */
  load(path: string): Promise<Payload>;
  /** Seeds the cache, e.g. with the page's own inlined data. */
  prime(payload: Payload): void;
}

/** Creates the loader for one running build. */
export function createPayloadLoader(buildId: string, fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis)): PayloadLoader {
  const cache = new Map<string, Promise<Payload>>();
  return {
    prime(payload) {
      cache.set(payload.path, Promise.resolve(payload));
    },
    load(path) {
      let pending = cache.get(path);
      if (!pending) {
        pending = fetchPayload(path, buildId, fetchImpl);
        // A failed load is not cached, so a later navigation tries again.
        pending.catch(() => cache.delete(path));
        cache.set(path, pending);
      }
      return pending;
    },
  };
}

/** Validates JSON read from a payload file; throws PayloadError('unreadable') on any other shape. */
export function parsePayload(value: unknown, path: string): Payload {
  const p = value as Partial<Payload> | null;
  if (
    !p ||
    typeof p !== 'object' ||
    p.v !== PAYLOAD_VERSION ||
    typeof p.buildId !== 'string' ||
    typeof p.path !== 'string' ||
    !('data' in p)
  ) {
    throw new PayloadError('unreadable', path, 'is not a payload of this site version');
  }
  return p as Payload;
}

// --- internal ---

async function fetchPayload(path: string, buildId: string, fetchImpl: typeof fetch): Promise<Payload> {
  let response: Response;
  try {
    response = await fetchImpl(payloadUrlFor(path, buildId));
  } catch (cause) {
    throw new PayloadError('unreadable', path, `could not be fetched: ${String(cause)}`);
  }
  if (response.status === 404) throw new PayloadError('not-found', path, 'does not exist in this build');
  if (!response.ok) throw new PayloadError('unreadable', path, `answered HTTP ${response.status}`);
  let json: unknown;
  try {
    json = await response.json();
  } catch {
    throw new PayloadError('unreadable', path, 'is not valid JSON');
  }
  const payload = parsePayload(json, path);
  if (payload.buildId !== buildId) throw new PayloadError('stale', path, `belongs to build ${payload.buildId}, not ${buildId}`);
  return payload;
}
