import type { BootData, BuildMeta, PageError, RouteRule, SiteData } from './shared/contract.ts';
import { normalizePath } from './shared/paths.ts';
import { isExternalTarget } from './shared/route-rules.ts';
import type { ComponentType } from 'react';
import { ErrorScreen } from './error-screen.tsx';
import { createStore, initialState, type NavigationState, type StateStore } from './navigation-state.ts';
import { createNotFoundError, createPageError, createValidationError } from './page-error.ts';
import { createPageDataLoader, type LiveDataSource } from './page-data.ts';
import { PayloadError, type PayloadLoader } from './payload.ts';
import { findRoute, type PageModule, type RouteDefinition, type RouteTableEntry } from './routes.ts';

export type { NavigationState } from './navigation-state.ts';

export interface NavigateOptions {
  replace?: boolean;
  /** Set for Back/Forward: the URL is already in the address bar. */
  pop?: boolean;
  /** Set when only the current page's data changed (editor login or logout): no scrolling, no focus move. */
  refresh?: boolean;
}

/** Side effects of navigation, injected so the store itself stays testable. */
export interface NavigationEffects {
  /** Loads `url` as a full document (guarded); returns false when the guard refused. */
  hardNavigate(url: string): boolean;
  /** A page was shown with its data and no error: the reload guard may reload its path again later. */
  loaded(path: string): void;
  /** Leaves the site for an external redirect target. */
  leave(url: string): void;
  /** Writes the URL to history after the new page is ready. */
  commitUrl(url: string, options: NavigateOptions): void;
  /** Runs after React rendered the committed state (scroll, focus, title). */
  afterCommit(state: NavigationState, previous: NavigationState, options: NavigateOptions): void;
  /** Decides whether an error may replace the page; false for bots (the error is only logged). */
  showsErrorScreen(error: PageError): boolean;
  /** The route rule for a path (redirects), from the build's route manifest. */
  ruleFor(path: string): Promise<RouteRule>;
  /** True once a newer build was published: the next navigation becomes a full load. */
  isStale(): boolean;
  /** The build's route manifest once it has loaded (about 1 s after hydration), or null when it cannot be. */
  manifest(): Promise<BuildMeta | null>;
  /** Hands an error that broke a page to error reporting; runs for bots too, whose screen stays as it was. */
  report(error: unknown): void;
}

export interface Navigation {
  /** The route table; the app needs only each route's entry (its layout). */
  readonly routes: readonly RouteTableEntry[];
  readonly site: SiteData;
  readonly buildId: string;
  getState(): NavigationState;
  subscribe(listener: () => void): () => void;
  /** The component that shows an error instead of the page. */
  errorScreen(): ComponentType<{ error: PageError }>;
  /** The loaded page module of a route; always present for the committed route. */
  moduleFor(routeId: string): PageModule | undefined;
  /** Loads the target's chunk and payload, then commits; superseded navigations are dropped. */
  navigate(to: string, options?: NavigateOptions): Promise<void>;
  /**
   * Warms the caches for a path without navigating: its route's script files (fetched one request
   * per task, so the scheduler's limit holds per request) and its payload when it was prerendered.
   */
  preload(path: string, schedule: <T>(load: () => Promise<T>) => Promise<T>): Promise<void>;
  /** Replaces the page with the error screen (unless the visitor is a bot). */
  showError(error: PageError): void;
  /** Reports an error thrown while rendering or hydrating, then shows it on the error screen. */
  fail(error: unknown): void;
  /** Fetches the current page's data again (editor preview turned on or off) and re-renders it; the page stays on failure. */
  refresh(): Promise<void>;
  /** Called by the app once React has rendered a committed state; runs the after-commit effects once. */
  didRender(state: NavigationState): void;
}

export interface NavigationOptions {
  routes: readonly RouteDefinition[];
  boot: BootData;
  /** Page modules already loaded (the current page's before hydration, or all of them on the server). */
  modules: Map<string, PageModule>;
  /** The URL the page was loaded at. */
  location: { pathname: string; search: string; hash: string };
  payloads?: PayloadLoader;
  /** Live data from the API: editor preview, and the fallback when a payload cannot be loaded. */
  live?: LiveDataSource;
  effects?: NavigationEffects;
  /** The state the app already renders (the browser hydrates before navigation loads); a new store otherwise. */
  store?: StateStore;
}

const MAX_REDIRECTS = 5;

/** Creates the navigation, on `store` when given. Without payloads/effects it is static (server render, tests). */
export function createNavigation(options: NavigationOptions): Navigation {
  const { routes, boot, modules, payloads, effects } = options;
  // A path the manifest does not list as prerendered has no payload: the reference asks the API instead.
  const pageData = createPageDataLoader(payloads, options.live, async (path) => {
    // Never waits for the manifest: before it has loaded, the answer is "not known" and the payload is tried.
    const meta = effects ? await Promise.race([effects.manifest(), Promise.resolve(null)]) : null;
    return meta ? meta.prerendered.includes(path) : null;
  });
  const loading = new Map<string, Promise<PageModule>>();
  const store = options.store ?? createStore(initialState(boot, options.location, routes));
  const initial = store.get();
  let latest = 0;
  // Effects wait for React to render the state they belong to (scrolling needs the new page's DOM).
  let pendingEffects: { state: NavigationState; previous: NavigationState; options: NavigateOptions } | null = null;

  const commit = (next: NavigationState, url: string | null, navOptions: NavigateOptions): void => {
    if (next.error && effects && !effects.showsErrorScreen(next.error)) return;
    if (url !== null) effects?.commitUrl(url, navOptions);
    pendingEffects = { state: next, previous: store.get(), options: navOptions };
    store.set(next);
    if (!next.error && next.routeId) effects?.loaded(next.path);
  };

  const loadModule = (route: RouteDefinition): Promise<PageModule> => {
    const loaded = modules.get(route.id);
    if (loaded) return Promise.resolve(loaded);
    let pending = loading.get(route.id);
    if (!pending) {
      pending = route.load().then((m) => {
        modules.set(route.id, m);
        return m;
      });
      // A failed chunk is not remembered: a later navigation tries again (or reloads).
      pending.catch(() => loading.delete(route.id));
      loading.set(route.id, pending);
    }
    return pending;
  };

  const navigate = async (to: string, navOptions: NavigateOptions = {}, redirects = 0): Promise<void> => {
    const state = store.get();
    const url = new URL(to, 'http://site.invalid' + state.path);
    const target = { path: normalizePath(url.pathname), search: url.search, hash: url.hash };
    const href = target.path + target.search + target.hash;
    const token = ++latest;

    // Same page, other query or hash: nothing to fetch (docs/decisions/navigation-by-payloads.md).
    if (target.path === state.path && !state.error) {
      commit({ ...state, search: target.search, hash: target.hash }, href, navOptions);
      return;
    }
    const rule = effects && !navOptions.pop ? await effects.ruleFor(target.path) : {};
    if (token !== latest) return;
    if (rule.redirect && redirects < MAX_REDIRECTS) {
      const destination = rule.redirect.includes('#') ? rule.redirect : rule.redirect + target.hash;
      if (isExternalTarget(destination)) effects?.leave(destination);
      else await navigate(destination, navOptions, redirects + 1);
      return;
    }
    // A newer build is live: load the target as a document; if the guard refuses, carry on here.
    if (effects?.isStale() && effects.hardNavigate(href)) return;

    const match = findRoute(routes, target.path);
    if (!match) {
      commit({ ...target, routeId: null, params: {}, data: null, error: createNotFoundError(target.path) }, href, navOptions);
      return;
    }
    if (match.route.validate && !match.route.validate(match.params, boot.site)) {
      commit(
        { ...target, routeId: match.route.id, params: match.params, data: null, error: createValidationError(target.path) },
        href,
        navOptions,
      );
      return;
    }
    try {
      const [, data] = await Promise.all([loadModule(match.route), pageData.load(match.route, match.params, target.path)]);
      if (token !== latest) return;
      commit({ ...target, routeId: match.route.id, params: match.params, data: data ?? null, error: null }, href, navOptions);
    } catch (error) {
      if (token !== latest) return;
      // A payload that neither the build nor the API could replace, or a chunk that will not load: the server has the page.
      if ((error instanceof PayloadError || isChunkLoadError(error)) && effects?.hardNavigate(href)) return;
      const pageError = createPageError(error);
      if (pageError.status >= 500) effects?.report(error);
      commit({ ...target, routeId: match.route.id, params: match.params, data: null, error: pageError }, href, navOptions);
    }
  };

  const showError = (error: PageError): void => {
    const state = store.get();
    // The first error wins, as in the reference: a later one (often caused by the first) never replaces it.
    if (state.error) return;
    if (!effects || effects.showsErrorScreen(error)) {
      commit({ ...state, error }, null, {});
    } else if (state === initial) {
      // A crawler keeps the prerendered page it loaded.
      commit({ ...state, staticFallback: true }, null, {});
    } else {
      // A crawler that navigated gets the target's prerendered page from the server instead.
      effects.hardNavigate(state.path + state.search + state.hash);
    }
  };

  return {
    routes,
    site: boot.site,
    buildId: boot.buildId,
    getState: store.get,
    subscribe: store.subscribe,
    errorScreen: () => ErrorScreen,
    moduleFor: (routeId) => modules.get(routeId),
    navigate: (to, navOptions) => navigate(to, navOptions),
    async preload(path, schedule) {
      const target = normalizePath(path);
      const match = findRoute(routes, target);
      if (!match || (match.route.validate && !match.route.validate(match.params, boot.site))) return;
      const meta = effects ? await effects.manifest() : null;
      const jobs: Promise<unknown>[] = [];
      if (!modules.has(match.route.id)) {
        const files = meta?.chunks[match.route.id];
        if (files) for (const file of files) jobs.push(warm(file, schedule));
        else jobs.push(schedule(() => loadModule(match.route)));
      }
      // Only prerendered paths have payloads: asking for others would only collect 404s. Until the
      // manifest is there (its first load may fail and be retried) the answer is unknown: no guess.
      if (payloads && meta?.prerendered.includes(target)) jobs.push(schedule(() => payloads.load(target)));
      await Promise.allSettled(jobs);
    },
    fail(error) {
      const pageError = createPageError(error);
      if (pageError.status >= 500) effects?.report(error);
      showError(pageError);
    },
    async refresh() {
      const current = store.get();
      const route = current.routeId && !current.error ? routes.find((r) => r.id === current.routeId) : undefined;
      if (!route) return;
      const token = latest;
      try {
        const data = await pageData.load(route, current.params, current.path);
        // A navigation that started meanwhile owns the page now.
        const state = store.get();
        if (token === latest && state.path === current.path && !state.error)
          commit({ ...state, data: data ?? null }, null, { refresh: true });
      } catch {
        // The page keeps the data it shows; the error hook has heard of the failure.
      }
    },
    showError,
    didRender(rendered) {
      if (pendingEffects?.state !== rendered) return;
      const { previous, options: navOptions } = pendingEffects;
      pendingEffects = null;
      effects?.afterCommit(rendered, previous, navOptions);
    },
  };
}

const warmed = new Set<string>();

/** Downloads a script into the HTTP cache without running it: one request, however many imports it has. */
function warm(file: string, schedule: <T>(load: () => Promise<T>) => Promise<T>): Promise<unknown> {
  if (warmed.has(file)) return Promise.resolve();
  warmed.add(file);
  return schedule(() => fetch(file).then((r) => r.arrayBuffer()));
}

/** True for the errors browsers raise when a dynamic import's file cannot be fetched or parsed. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload/i.test(
    message,
  );
}
