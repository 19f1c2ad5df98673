import { createNotFoundError } from './page-error.ts';
import { findRoute, type RouteTableEntry, type RouteParams } from './routes.ts';
import type { BootData, PageError } from './shared/contract.ts';
import { normalizePath } from './shared/paths.ts';

/** What the app renders: one committed location with its page, data or error. */
export interface NavigationState {
  path: string;
  search: string;
  hash: string;
  routeId: string | null;
  params: RouteParams;
  data: unknown;
  error: PageError | null;
  /** Set when a bot's first page failed to render: the app shows the prerendered markup again. */
  staticFallback?: boolean;
}

/** A value that React reads with useSyncExternalStore, and whoever owns it replaces. */
export interface Store<T> {
  get(): T;
  /** Replaces the value and tells every subscriber. */
  set(next: T): void;
  subscribe(listener: () => void): () => void;
}

/**
 * The committed state, shared by the app (which renders it) and the navigation (which replaces it). In the
 * browser the app hydrates with the store before the navigation code has loaded.
 */
export type StateStore = Store<NavigationState>;

export function createStore<T>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    set(next) {
      state = next;
      listeners.forEach((l) => l());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The state of the page as the build wrote it: its route, params and inlined data, or its error. */
export function initialState(
  boot: BootData,
  location: { pathname: string; search: string; hash: string },
  routes: readonly RouteTableEntry[],
): NavigationState {
  const path = normalizePath(boot.path ?? location.pathname);
  const base = { path, search: location.search, hash: location.hash };
  if (boot.error) {
    // 404.html serves every unknown path: its message names the path the visitor asked for.
    const error = boot.error.status === 404 && !boot.routeId ? createNotFoundError(path) : boot.error;
    return { ...base, routeId: boot.routeId, params: {}, data: null, error };
  }
  return { ...base, routeId: boot.routeId, params: findRoute(routes, path)?.params ?? {}, data: boot.data, error: null };
}
