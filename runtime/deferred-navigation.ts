import type { ComponentType } from 'react';
import type { AppNavigation, Slot } from './app.tsx';
import type { NavigateOptions, Navigation } from './navigation.ts';
import { createStore, type StateStore } from './navigation-state.ts';
import type { PageModule, RouteTableEntry } from './routes.ts';
import type { PageError, SiteData } from './shared/contract.ts';

export interface DeferredNavigationOptions {
  routes: readonly RouteTableEntry[];
  site: SiteData;
  store: StateStore;
  /** The page modules loaded so far: the current page's, and the real navigation's later on. */
  modules: Map<string, PageModule>;
  /** Loads the navigation chunk and creates the real navigation on the same store and modules. */
  load: () => Promise<Navigation>;
  /** The error screen, loaded before hydration when the page is one (404.html); the navigation brings it otherwise. */
  errorScreen?: ComponentType<{ error: PageError }>;
  /** Loads `href` as a document, the browser's own way: what a link does when the navigation chunk will not load. */
  fallback: (href: string, options: NavigateOptions) => void;
}

/** The navigation the page hydrates with, and `ready()`, which loads the real one (once). */
export interface DeferredNavigation extends AppNavigation {
  readonly banner: Slot;
  ready(): Promise<Navigation>;
  /** Shows `component` above the page (runtime/interactive.ts: the editor-preview banner). */
  showBanner(component: ComponentType): void;
}

/**
 * The navigation the app hydrates with. Hydrating needs only the prerendered page's state; every change
 * to it (a click, Back, an error) waits for the real navigation, whose chunk hydrate loads right after
 * the first render. So the code for navigating, prefetching, build checks and editor preview is not
 * first-load JavaScript, and a visitor who clicks before it arrives still gets a client navigation.
 */
export function createDeferredNavigation({
  routes,
  site,
  store,
  modules,
  load,
  errorScreen,
  fallback,
}: DeferredNavigationOptions): DeferredNavigation {
  let loaded: Navigation | null = null;
  let pending: Promise<Navigation> | null = null;
  const banner = createStore<ComponentType | null>(null);
  const ready = (): Promise<Navigation> => {
    pending ??= load().then((nav) => (loaded = nav));
    // A chunk that failed to load is tried again by the next call.
    pending.catch(() => (pending = null));
    return pending;
  };
  return {
    routes,
    site,
    getState: store.get,
    subscribe: store.subscribe,
    moduleFor: (routeId) => modules.get(routeId),
    errorScreen() {
      const screen = loaded?.errorScreen() ?? errorScreen;
      // Only an error page or the real navigation can commit an error, and both bring the screen.
      if (!screen) throw new Error('An error was rendered before the error screen loaded.');
      return screen;
    },
    navigate: (to, options = {}) =>
      ready().then(
        (nav) => nav.navigate(to, options),
        () => fallback(to, options),
      ),
    fail: (error) =>
      void ready().then(
        (nav) => nav.fail(error),
        () => console.error('Page failed to render', error),
      ),
    // Only the real navigation commits states, so only its states have effects to run.
    didRender: (state) => loaded?.didRender(state),
    banner: { get: banner.get, subscribe: banner.subscribe },
    showBanner: banner.set,
    ready,
  };
}
