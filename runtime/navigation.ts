import type { BootData, PageError, SiteData } from './shared/contract.ts';
import { normalizePath } from './shared/paths.ts';
import { createNotFoundError, createPageError, createValidationError } from './page-error.ts';
import { PayloadError, type PayloadLoader } from './payload.ts';
import { findRoute, type PageModule, type RouteDefinition, type RouteParams } from './routes.ts';

/** What the app renders: one committed location with its page, data or error. */
export interface NavigationState {
  path: string;
  search: string;
  hash: string;
  routeId: string | null;
  params: RouteParams;
  data: unknown;
  error: PageError | null;
}

export interface NavigateOptions {
  replace?: boolean;
  /** Set for Back/Forward: the URL is already in the address bar. */
  pop?: boolean;
}

/** Side effects of a committed navigation, injected so the store itself stays testable. */
export interface NavigationEffects {
  /** Loads `url` as a full document (guarded); returns false when the guard refused. */
  hardNavigate(url: string): boolean;
  /** Writes the URL to history after the new page is ready. */
  commitUrl(url: string, options: NavigateOptions): void;
  /** Runs after React rendered the committed state (scroll, focus, title). */
  afterCommit(state: NavigationState, options: NavigateOptions): void;
}

export interface Navigation {
  readonly routes: readonly RouteDefinition[];
  readonly site: SiteData;
  readonly buildId: string;
  getState(): NavigationState;
  subscribe(listener: () => void): () => void;
  /** The loaded page module of a route; always present for the committed route. */
  moduleFor(routeId: string): PageModule | undefined;
  /** Loads the target's chunk and payload, then commits; superseded navigations are dropped. */
  navigate(to: string, options?: NavigateOptions): Promise<void>;
  /** Replaces the state without loading anything (error screen, fatal errors). */
  showError(error: PageError): void;
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
  effects?: NavigationEffects;
}

/** Creates the navigation store. Without payloads/effects it is static (server render, tests). */
export function createNavigation(options: NavigationOptions): Navigation {
  const { routes, boot, modules, payloads, effects } = options;
  const listeners = new Set<() => void>();
  let state = initialState(options);
  let latest = 0;
  // Effects wait for React to render the state they belong to (scrolling needs the new page's DOM).
  let pendingEffects: { state: NavigationState; options: NavigateOptions } | null = null;

  const commit = (next: NavigationState, url: string | null, navOptions: NavigateOptions): void => {
    if (url !== null) effects?.commitUrl(url, navOptions);
    state = next;
    pendingEffects = { state: next, options: navOptions };
    listeners.forEach((l) => l());
  };

  const loadModule = async (route: RouteDefinition): Promise<PageModule> => {
    const existing = modules.get(route.id);
    if (existing) return existing;
    const loaded = await route.load();
    modules.set(route.id, loaded);
    return loaded;
  };

  return {
    routes,
    site: boot.site,
    buildId: boot.buildId,
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    moduleFor: (routeId) => modules.get(routeId),
    didRender(rendered) {
      if (pendingEffects?.state !== rendered) return;
      const { options: navOptions } = pendingEffects;
      pendingEffects = null;
      effects?.afterCommit(rendered, navOptions);
    },
    showError(error) {
      commit({ ...state, error }, null, {});
    },
    async navigate(to, navOptions = {}) {
      const url = new URL(to, 'http://site.invalid' + state.path);
      const target = { path: normalizePath(url.pathname), search: url.search, hash: url.hash };
      const href = target.path + target.search + target.hash;
      const token = ++latest;

      // Same page, other query or hash: nothing to fetch (DESIGN.md decision 2).
      if (target.path === state.path && !state.error) {
        commit({ ...state, search: target.search, hash: target.hash }, href, navOptions);
        return;
      }
      const match = findRoute(routes, target.path);
      if (!match) {
        commit({ ...target, routeId: null, params: {}, data: null, error: createNotFoundError(target.path) }, href, navOptions);
        return;
      }
      if (match.route.validate && !match.route.validate(match.params, boot.site)) {
        commit({ ...target, routeId: match.route.id, params: match.params, data: null, error: createValidationError(target.path) }, href, navOptions);
        return;
      }
      try {
        const [, payload] = await Promise.all([loadModule(match.route), payloads ? payloads.load(target.path) : Promise.resolve(null)]);
        if (token !== latest) return;
        commit({ ...target, routeId: match.route.id, params: match.params, data: payload?.data ?? null, error: null }, href, navOptions);
      } catch (error) {
        if (token !== latest) return;
        // A missing, unreadable or foreign payload, or a chunk that will not load: the server has the page.
        if (error instanceof PayloadError || isChunkLoadError(error)) {
          if (effects?.hardNavigate(href)) return;
        }
        commit({ ...target, routeId: match.route.id, params: match.params, data: null, error: createPageError(error) }, href, navOptions);
      }
    },
  };
}

/** True for the errors browsers raise when a dynamic import's file cannot be fetched or parsed. */
export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : '';
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i.test(message);
}

// --- internal ---

function initialState({ boot, location, routes }: NavigationOptions): NavigationState {
  const path = normalizePath(boot.path ?? location.pathname);
  const base = { path, search: location.search, hash: location.hash };
  if (boot.error) {
    // 404.html serves every unknown path: its message names the path the visitor asked for.
    const error = boot.error.status === 404 && !boot.routeId ? createNotFoundError(path) : boot.error;
    return { ...base, routeId: boot.routeId, params: {}, data: null, error };
  }
  const match = findRoute(routes, path);
  return { ...base, routeId: boot.routeId, params: match?.params ?? {}, data: boot.data, error: null };
}
