import type { LiveDataModule, RouteParams } from './routes.ts';

/**
 * The build's API settings for the browser, set by hydrate before the first render. Kept apart from
 * runtime/live-api.ts so that setting them costs the first load almost nothing, while pages that ask for
 * the API during hydration (the login page) already find them.
 */
export interface LiveApiSetup {
  /** The public API endpoint from the build (BootData.config), or null. */
  endpoint: string | null;
  /** The route table's live-data loader, or undefined when the site has none. */
  load: (() => Promise<LiveDataModule>) | undefined;
  /** `performance.now()` when the page hydrated. */
  hydratedAt: number;
  /** The first page: its route, params and inlined data, the answer to its own query. */
  initial: { routeId: string; params: RouteParams; data: unknown } | null;
}

/**
 * The cookie that holds the visitor's token (the reference's name). Here, in the entry, because both the
 * API client and error reporting (which scrubs it) need it, and neither should load the other for it.
 */
export const TOKEN_COOKIE = 'apollo:default.token';

let setup: LiveApiSetup | null = null;

/** Called once by hydrate with the build's config. */
export function configureLiveApi(next: LiveApiSetup): void {
  setup = next;
}

/** The settings hydrate configured, or null (server render, tests). */
export function liveApiSetup(): LiveApiSetup | null {
  return setup;
}
