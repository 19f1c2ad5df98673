import { createGraphQLClient, operationNameOf, type GraphQLRequestError } from './shared/graphql.ts';

/**
 * The browser's GraphQL client `default` (docs/runtime.md), a wrapper over the shared transport
 * (graphql-request, timeouts, retries of transient failures, de-duplication of identical in-flight
 * queries). It adds what @nuxtjs/apollo's client has in the reference: a result cache that login and
 * logout reset, the 100 ms handover after hydration during which queries are answered from the page's
 * inlined data, and no subscriptions (there is no WebSocket endpoint). Loaded on first use only.
 */

/** `cache-first` answers from the cache when it can (the default); `network-only` always asks the API. */
export type FetchPolicy = 'cache-first' | 'network-only';

export interface RuntimeClientOptions {
  /** The public API endpoint; the token is sent there and nowhere else. */
  endpoint: string;
  getToken: () => string | null;
  /** The shared error hook: every failed operation, once, with its operation name. */
  onError: (error: GraphQLRequestError) => void;
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Clock for the handover window. @default performance.now */
  now?: () => number;
  /** Until this `now()` time every query the cache can answer is answered from it, whatever its policy. */
  networkHoldUntil?: number;
  /** The first page's inlined data as the answer to its own query; cached only for anonymous visitors. */
  initial?: { document: string; variables?: Record<string, unknown>; data: unknown } | null;
  /** @default 10000: a visitor waits, a build can afford the transport's 30 s */
  timeoutMs?: number;
  /** @default 1 */
  retries?: number;
}

export interface RuntimeGraphQLClient {
  readonly name: 'default';
  readonly endpoint: string;
  /** Runs a query; identical queries in flight share one request. */
  query<T>(document: string, variables?: Record<string, unknown>, options?: { fetchPolicy?: FetchPolicy }): Promise<T>;
  /** Runs a mutation: never cached, never shared with another call. */
  mutate<T>(document: string, variables?: Record<string, unknown>): Promise<T>;
  /** Always throws: subscriptions need a WebSocket endpoint, and none is configured. */
  subscribe(document: string): never;
  /** Forgets every cached result, and results of requests still in flight. */
  resetCache(): void;
  /** HTTP requests sent so far. */
  requestCount(): number;
}

/** Thrown for any subscription operation. */
export class SubscriptionsUnavailableError extends Error {
  constructor(operation: string) {
    super(
      `Subscription ${operation} cannot run: the GraphQL client "default" has no WebSocket endpoint configured, so subscriptions are not available. Use a query instead.`,
    );
    this.name = 'SubscriptionsUnavailableError';
  }
}

export function createRuntimeClient(options: RuntimeClientOptions): RuntimeGraphQLClient {
  const now = options.now ?? (() => performance.now());
  const apiOrigin = new URL(options.endpoint).origin;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const guardedFetch = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    const url = new URL(input instanceof Request ? input.url : String(input));
    // The token belongs to the API origin alone (docs/decisions/untrusted-content.md): never sent elsewhere, never
    // carried along by a redirect, and the site's own cookies never go to the API.
    if (url.origin !== apiOrigin) headers.delete('authorization');
    return fetchImpl(input, { ...init, headers, credentials: 'omit', redirect: headers.has('authorization') ? 'error' : 'follow' });
  };
  const transport = (dedupe: boolean) =>
    createGraphQLClient({
      endpoint: options.endpoint,
      name: 'default',
      fetch: guardedFetch,
      getToken: options.getToken,
      dedupe,
      onError: options.onError,
      timeoutMs: options.timeoutMs ?? 10_000,
      retries: options.retries ?? 1,
    });
  const queries = transport(true);
  // Two identical mutations are two actions (Apollo never de-duplicates them either).
  const mutations = transport(false);

  const cache = new Map<string, unknown>();
  let generation = 0;
  const keyOf = (document: string, variables: Record<string, unknown> | undefined): string => JSON.stringify([document, variables ?? null]);
  if (options.initial && !options.getToken()) cache.set(keyOf(options.initial.document, options.initial.variables), options.initial.data);

  const refuseSubscription = (document: string): void => {
    if (isSubscription(document)) throw new SubscriptionsUnavailableError(operationNameOf(document));
  };

  return {
    name: 'default',
    endpoint: options.endpoint,
    async query<T>(
      document: string,
      variables?: Record<string, unknown>,
      { fetchPolicy = 'cache-first' }: { fetchPolicy?: FetchPolicy } = {},
    ): Promise<T> {
      refuseSubscription(document);
      const key = keyOf(document, variables);
      // During the handover a network-only query is served like cache-first (Apollo's ssrForceFetchDelay).
      if ((fetchPolicy === 'cache-first' || now() < (options.networkHoldUntil ?? 0)) && cache.has(key)) return cache.get(key) as T;
      const started = generation;
      const data = await queries.request<T>(document, variables);
      // A result that raced a login or logout belongs to the previous identity: hand it back, do not keep it.
      if (started === generation) cache.set(key, data);
      return data;
    },
    async mutate<T>(document: string, variables?: Record<string, unknown>): Promise<T> {
      refuseSubscription(document);
      return mutations.request<T>(document, variables);
    },
    subscribe(document: string): never {
      throw new SubscriptionsUnavailableError(operationNameOf(document));
    },
    resetCache() {
      cache.clear();
      generation++;
    },
    requestCount: () => queries.requestCount() + mutations.requestCount(),
  };
}

// --- internal ---

/** True when an operation of the document (a keyword outside every selection set) is a subscription. */
function isSubscription(document: string): boolean {
  let depth = 0;
  for (const token of document.replace(/#[^\n]*/g, '').match(/[{}]|[_A-Za-z][_0-9A-Za-z]*/g) ?? []) {
    if (token === '{') depth++;
    else if (token === '}') depth--;
    else if (depth === 0 && token === 'subscription') return true;
  }
  return false;
}
