import { createAuth, type CookieJar, type TokenHook } from './auth.ts';
import type { RuntimeGraphQLClient } from './graphql-client.ts';
import type { PreviewState } from './preview.tsx';
import { liveApiSetup } from './live-config.ts';
import type { LiveDataModule, RouteDefinition, RouteParams } from './routes.ts';
import type { GraphQLRequestError } from './shared/graphql.ts';

/**
 * The browser's access to the GraphQL API: the client `default` (loaded on first use, with the site's
 * route queries), the token, the shared error hook, and whether editor preview is on. Everything heavy
 * lives in the live-data chunk the route table names, so none of it is first-load JavaScript.
 */

/**
 * After hydration, runtime queries are answered from the page's inlined data for this long
 * (docs/decisions/navigation-by-payloads.md, constants).
 */
export const HANDOVER_MS = 100;

/** The hook every failed GraphQL operation is passed to, with its operation name. */
export type GraphQLErrorHook = (error: GraphQLRequestError) => void;

/** Raised when the page needs the API and the build configured none. */
export class LiveApiUnavailableError extends Error {
  constructor() {
    super(
      'This build has no public GraphQL endpoint: rebuild with --public-endpoint (or PUBLIC_GRAPHQL_ENDPOINT) to enable editor preview and live data.',
    );
    this.name = 'LiveApiUnavailableError';
  }
}

const documentJar: CookieJar = {
  read: () => document.cookie,
  write: (cookie) => {
    document.cookie = cookie;
  },
};

/** The content contract's logout mutation (site/schema.graphql): the backend forgets the token. */
const LOGOUT_MUTATION = 'mutation Logout { logout }';
const LOGOUT_REVOKE_MS = 3000;

let live: Promise<{ client: RuntimeGraphQLClient; module: LiveDataModule }> | null = null;
let loadedClient: RuntimeGraphQLClient | null = null;
const logError: GraphQLErrorHook = (error) =>
  console.warn(`[graphql:default] ${error.operation} failed (${error.kind}${error.status ? ` ${error.status}` : ''}): ${error.reason}`);
let errorHook = logError;

/** The visitor's token state; login and logout reset the client's cache before anyone hears of them. */
export const auth = createAuth(documentJar, () => loadedClient?.resetCache());

/** True when this build has an API the browser may call. */
export function isLiveApiAvailable(): boolean {
  const setup = liveApiSetup();
  return Boolean(setup?.endpoint && setup.load);
}

/** Editor preview: a token is present and there is an API to fetch live data (drafts included) from. */
export function isPreviewMode(): boolean {
  return isLiveApiAvailable() && auth.getToken() !== null;
}

/** Replaces the shared GraphQL error hook (the default logs a warning); null restores the default. */
export function setGraphQLErrorHook(hook: GraphQLErrorHook | null): void {
  errorHook = hook ?? logError;
}

/** Registers the site's token hook: its token wins over the `apollo:default.token` cookie. */
export function setTokenHook(hook: TokenHook | null): void {
  auth.setTokenHook(hook);
}

/** Stores the token from a successful login in the cookie and resets the GraphQL cache; preview starts. */
export function login(token: string): void {
  auth.login(token);
}

/**
 * Logs the editor out: the backend forgets the token (best effort, a few seconds at most), then the
 * cookie is cleared and the GraphQL cache reset. Without a token cookie nothing happens (false).
 */
export async function logout(): Promise<boolean> {
  if (auth.cookieToken() === null) return false;
  if (isLiveApiAvailable()) {
    const revoke = getGraphQLClient().then((client) => client.mutate(LOGOUT_MUTATION));
    await Promise.race([revoke.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, LOGOUT_REVOKE_MS))]);
  }
  return auth.logout();
}

/** The content contract's viewer query (site/schema.graphql): null for an unknown or expired token. */
export const VIEWER_QUERY = 'query Viewer { viewer { name } }';

/** Who the token belongs to, asked fresh from the API; null when the token is not (or no longer) valid. */
export async function fetchViewer(): Promise<{ name: string } | null> {
  const client = await getGraphQLClient();
  return (await client.query<{ viewer: { name: string } | null }>(VIEWER_QUERY, undefined, { fetchPolicy: 'network-only' })).viewer;
}

/** Preview state for the app's banner. */
export const preview: PreviewState = {
  subscribe: (listener) => auth.subscribe(listener),
  isOn: isPreviewMode,
  viewer: fetchViewer,
  logout: async () => void (await logout()),
};

/** The GraphQL client `default`; rejects with LiveApiUnavailableError when the build has no public endpoint. */
export async function getGraphQLClient(): Promise<RuntimeGraphQLClient> {
  return (await loadLive()).client;
}

/**
 * A page's data from the API, rich text cleaned: `fresh` always asks the API (editor preview), otherwise
 * a cached answer will do (payload fallback). Null when there is no API or the route has no browser query.
 */
export async function loadLiveData(route: RouteDefinition, params: RouteParams, fresh: boolean): Promise<{ data: unknown } | null> {
  if (!isLiveApiAvailable()) return null;
  const { client, module } = await loadLive();
  const query = module.liveQueries[route.id];
  if (!query) return null;
  const data = await client.query(query.query, query.variables?.(params), { fetchPolicy: fresh ? 'network-only' : 'cache-first' });
  return { data: module.sanitizeLiveData(data, new URL(client.endpoint).origin) };
}

// --- internal ---

function loadLive(): Promise<{ client: RuntimeGraphQLClient; module: LiveDataModule }> {
  const current = liveApiSetup();
  if (!current?.endpoint || !current.load) return Promise.reject(new LiveApiUnavailableError());
  const endpoint = current.endpoint;
  live ??= current.load().then((module) => {
    const first = current.initial;
    const query = first ? module.liveQueries[first.routeId] : undefined;
    const client = module.createRuntimeClient({
      endpoint,
      getToken: () => auth.getToken(),
      onError: (error) => errorHook(error),
      networkHoldUntil: current.hydratedAt + HANDOVER_MS,
      initial: first && query ? { document: query.query, variables: query.variables?.(first.params), data: first.data } : null,
    });
    loadedClient = client;
    return { client, module };
  });
  // A chunk that failed to load is tried again next time.
  live.catch(() => (live = null));
  return live;
}
