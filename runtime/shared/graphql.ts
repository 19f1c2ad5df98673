import { ClientError, GraphQLClient } from 'graphql-request';
import { GraphQLRequestError } from './graphql-error.ts';
import { isInsecureTokenEndpoint } from './loopback.ts';
import { redactUrl } from './redact-url.ts';

/**
 * The one GraphQL transport, used by the build (Node) and the browser. It adds to graphql-request:
 * a request timeout, retries with backoff for transient failures (network, 408, 429, 5xx, honouring
 * Retry-After; and, at most twice, a 2xx answer that is not GraphQL JSON, which is what a proxy's
 * error page or a cut-off body looks like), de-duplication of identical in-flight queries, an
 * optional Bearer token, and one error type that names the operation and never carries the token or
 * the variables (nor credentials in the endpoint: errors show it through redactUrl).
 *
 * A request that carries a token is never redirected (the token would go to wherever the redirect
 * points: an error names the endpoint and the Location instead) and is never sent over plain http to a
 * host that is not loopback (refused before any network I/O). Requests without a token follow
 * redirects as fetch does.
 */

export interface GraphQLClientOptions {
  /** Absolute URL of the GraphQL endpoint. */
  endpoint: string;
  /** Client name, reported in errors. @default 'default' */
  name?: string;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Returns the token to send as `Authorization: Bearer {token}`, or null for none. Sent only to `endpoint`. */
  getToken?: () => string | null | undefined;
  /** Headers sent with every request besides Authorization (the build's published-only request, say). */
  headers?: Readonly<Record<string, string>>;
  /** Milliseconds before one attempt is abandoned. @default 30000 */
  timeoutMs?: number;
  /** Extra attempts for transient failures. @default 3 */
  retries?: number;
  /** Delay before retry n (1-based) when the server gives no Retry-After. @default backoffDelay(n) */
  backoffMs?: (attempt: number) => number;
  /** Share one request between identical in-flight queries. @default true */
  dedupe?: boolean;
  /** Called once for every failed operation (after retries), before the error is thrown. */
  onError?: (error: GraphQLRequestError) => void;
}

export { GraphQLRequestError, isGraphQLRequestError, type GraphQLErrorKind } from './graphql-error.ts';

export interface GraphQLClientHandle {
  readonly name: string;
  readonly endpoint: string;
  /** Runs a query or mutation and resolves with its `data`; rejects with GraphQLRequestError. */
  request<TData, TVars extends Record<string, unknown> = Record<string, unknown>>(document: string, variables?: TVars): Promise<TData>;
  /** Number of HTTP requests actually sent (attempts included). */
  requestCount(): number;
}

/** Creates a client. Nothing is sent until `request` is called. */
export function createGraphQLClient(options: GraphQLClientOptions): GraphQLClientHandle {
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 3;
  const backoffMs = options.backoffMs ?? ((n: number) => backoffDelay(n));
  const inFlight = new Map<string, Promise<unknown>>();
  let sent = 0;
  const shown = redactUrl(options.endpoint);

  /** One HTTP request; the answer's status and type are kept to explain a body graphql-request cannot read. */
  async function send<TData>(document: string, variables: Record<string, unknown> | undefined, operation: string): Promise<TData> {
    let answer: Answer | null = null;
    let redirected: GraphQLRequestError | null = null;
    const token = options.getToken?.();
    if (token && isInsecureTokenEndpoint(options.endpoint)) {
      throw new GraphQLRequestError({
        kind: 'insecure',
        operation,
        endpoint: shown,
        status: null,
        reason: 'a token over plain http',
        message: `${operation} was not sent: ${shown} is plain http to a host that is not loopback, and the request carries a token (GRAPHQL_TOKEN in the build) that anyone on the way could read. Use an https endpoint, or a loopback one (127.0.0.1, ::1, localhost).`,
      });
    }
    const client = new GraphQLClient(options.endpoint, {
      fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
        sent++;
        // The signal covers the body too: an answer that stalls half-way times out like one that never starts.
        const response = await fetchImpl(input, {
          ...init,
          signal: AbortSignal.timeout(timeoutMs),
          ...(token ? { redirect: 'manual' as const } : {}),
        });
        answer = { status: response.status, contentType: response.headers.get('content-type') ?? 'no content type' };
        if (token && (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400))) {
          redirected = redirectError(operation, shown, options.endpoint, response);
          throw redirected;
        }
        return response;
      },
    });
    const headers: Record<string, string> = { ...options.headers, ...(token ? { authorization: authorizationFor(token) } : {}) };
    try {
      return await client.request<TData>({ document, variables, requestHeaders: headers });
    } catch (cause) {
      if (redirected) throw redirected;
      throw toRequestError(cause, operation, shown, timeoutMs, answer);
    }
  }

  async function attempt<TData>(document: string, variables: Record<string, unknown> | undefined, operation: string): Promise<TData> {
    for (let n = 1; ; n++) {
      try {
        return await send<TData>(document, variables, operation);
      } catch (error) {
        const wait = retryDelay(error as GraphQLRequestError, n, retries, backoffMs);
        if (wait === null) throw error;
        await sleep(wait);
      }
    }
  }

  return {
    name: options.name ?? 'default',
    endpoint: options.endpoint,
    requestCount: () => sent,
    async request<TData, TVars extends Record<string, unknown>>(document: string, variables?: TVars): Promise<TData> {
      const operation = operationNameOf(document);
      const key = options.dedupe === false ? null : JSON.stringify([document, variables ?? null, options.getToken?.() ?? null]);
      const existing = key ? inFlight.get(key) : undefined;
      if (existing) return existing as Promise<TData>;
      const pending = attempt<TData>(document, variables, operation).catch((error: GraphQLRequestError) => {
        options.onError?.(error);
        throw error;
      });
      if (key) {
        inFlight.set(key, pending);
        const forget = (): void => void inFlight.delete(key);
        pending.then(forget, forget);
      }
      return pending;
    },
  };
}

/**
 * The default delay before retry n (1-based): 250 ms doubling per attempt (`base` for the first),
 * at most 8 s, with jitter in its upper half so many pages failing together do not retry in step.
 */
export function backoffDelay(attempt: number, base = 250, random: () => number = Math.random): number {
  const full = Math.min(base * 2 ** (attempt - 1), 8000);
  return Math.round(full / 2 + (random() * full) / 2);
}

/** The first operation name in a document, or `anonymous`. */
export function operationNameOf(document: string): string {
  return /\b(?:query|mutation|subscription)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(document)?.[1] ?? 'anonymous';
}

// --- internal ---

/** The redirect a request with a token was answered with, as an error naming both addresses. */
function redirectError(operation: string, shown: string, endpoint: string, response: Response): GraphQLRequestError {
  const location = response.headers.get('location');
  const target =
    location === null
      ? 'an address the browser does not reveal'
      : redactUrl(URL.canParse(location, endpoint) ? new URL(location, endpoint).href : location);
  const status = response.type === 'opaqueredirect' ? null : response.status;
  return new GraphQLRequestError({
    kind: 'redirect',
    operation,
    endpoint: shown,
    status,
    reason: `redirect to ${target}${status === null ? '' : ` (HTTP ${status})`}`,
    message: `${operation}: ${shown} answered ${status === null ? 'with a redirect' : `HTTP ${status}`} to ${target}. A request that carries a token (GRAPHQL_TOKEN in the build) never follows a redirect, which would hand the token to another address: use the final URL as the endpoint.`,
  });
}

const TRANSIENT_STATUS = new Set([408, 429, 500, 502, 503, 504]);
/** A 2xx answer that is not GraphQL JSON is retried at most this often, however many retries are allowed. */
const INVALID_RESPONSE_RETRIES = 2;

/** What the server answered, as far as the headers tell. */
interface Answer {
  status: number;
  contentType: string;
}

/** A GraphQLRequestError keeps its cause; Retry-After is read from it. */
function toRequestError(
  cause: unknown,
  operation: string,
  endpoint: string,
  timeoutMs: number,
  answer: Answer | null,
): GraphQLRequestError {
  const base = { operation, endpoint, cause };
  if (cause instanceof ClientError) {
    const status = cause.response.status;
    const errors = (cause.response.errors ?? []).map((e) => ({ message: e.message }));
    if (errors.length > 0 && status >= 200 && status < 300) {
      return new GraphQLRequestError({
        ...base,
        kind: 'graphql',
        status,
        graphqlErrors: errors,
        reason: errors.map((e) => e.message).join('; '),
        message: `${operation} returned GraphQL errors: ${errors.map((e) => e.message).join('; ')}`,
      });
    }
    return new GraphQLRequestError({
      ...base,
      kind: 'http',
      status,
      graphqlErrors: errors,
      reason: `HTTP ${status}`,
      message: `${operation} failed with HTTP ${status} from ${endpoint}`,
    });
  }
  const err = cause as { name?: string; message?: string } | null;
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') {
    return new GraphQLRequestError({
      ...base,
      kind: 'timeout',
      status: null,
      reason: `no answer within ${timeoutMs} ms`,
      message: `${operation} got no answer from ${endpoint} within ${timeoutMs} ms`,
    });
  }
  if (
    err?.name === 'TypeError' &&
    /fetch|network|socket|ECONN/i.test(`${err.message} ${String((cause as { cause?: unknown }).cause ?? '')}`)
  ) {
    const reason = describeNetworkCause(cause) || 'connection failed';
    return new GraphQLRequestError({
      ...base,
      kind: 'network',
      status: null,
      reason,
      message: `${operation} could not reach ${endpoint} (${reason})`,
    });
  }
  const reason = describeInvalidAnswer(err?.message ?? String(cause), answer);
  return new GraphQLRequestError({
    ...base,
    kind: 'invalid-response',
    status: answer?.status ?? null,
    reason,
    message: `${operation} got an unreadable answer from ${endpoint}: ${reason}`,
  });
}

/** One short line: graphql-request's message quotes the whole body, which may be a page of HTML. */
function describeInvalidAnswer(message: string, answer: Answer | null): string {
  const got = /Got:\s*([\s\S]*)$/.exec(message)?.[1];
  const detail = got === undefined ? message : `body starts ${JSON.stringify(got.replace(/\s+/g, ' ').trim().slice(0, 60))}`;
  const what = got === undefined ? 'not valid JSON' : 'not a GraphQL JSON answer';
  return answer ? `HTTP ${answer.status} (${answer.contentType}) was ${what}: ${detail}` : `${what}: ${detail}`;
}

function describeNetworkCause(cause: unknown): string {
  const inner = (cause as { cause?: { code?: string; message?: string } }).cause;
  return inner?.code ?? inner?.message ?? '';
}

/** Milliseconds to wait before attempt `attempt + 1`, or null when the failure is final. */
function retryDelay(error: GraphQLRequestError, attempt: number, retries: number, backoffMs: (n: number) => number): number | null {
  if (attempt > retries) return null;
  const transient =
    error.kind === 'network' ||
    error.kind === 'timeout' ||
    (error.kind === 'http' && error.status !== null && isTransientStatus(error.status)) ||
    (error.kind === 'invalid-response' &&
      attempt <= INVALID_RESPONSE_RETRIES &&
      (error.status === null || (error.status >= 200 && error.status < 300)));
  if (!transient) return null;
  const retryAfter =
    error.cause instanceof ClientError && error.cause.response.headers instanceof Headers
      ? retryAfterMs(error.cause.response.headers)
      : null;
  return retryAfter ?? backoffMs(attempt);
}

/**
 * The Authorization header for a token, as the reference builds it: a token that already starts with
 * a scheme word and whitespace (`Bearer x`, `Token x`) is sent as it is, any other gets `Bearer `.
 */
export function authorizationFor(token: string): string {
  return /^[a-zA-Z]+\s/.test(token) ? token : `Bearer ${token}`;
}

/** A status worth another attempt (408, 429 and the 5xx a busy or restarting server gives); media downloads use it too. */
export function isTransientStatus(status: number): boolean {
  return TRANSIENT_STATUS.has(status);
}

/** Milliseconds a Retry-After header asks for (seconds or a date, at most 60 s), or null without one. */
export function retryAfterMs(headers: Headers): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.min(seconds * 1000, 60_000));
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.min(date - Date.now(), 60_000));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
