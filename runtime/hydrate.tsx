import type { ComponentType } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { createDeferredNavigation } from './deferred-navigation.ts';
import { collectErrors } from './error-reporting.ts';
import { interceptLinks } from './intercept-links.ts';
import { configureLiveApi } from './live-config.ts';
import { createStore, initialState } from './navigation-state.ts';
import { createBrowserReloadEnv, reloadOnce } from './reload-guard.ts';
import type { Layouts, PageModule, RouteTableEntry, RouteTableOptions } from './routes.ts';
import { APP_ELEMENT_ID, BOOT_ELEMENT_ID, BOOT_SELECTOR } from './shared/document-ids.ts';
import type { BootData, PageError } from './shared/contract.ts';

export interface HydrateOptions {
  /** The route table; its `live` and `errorReporting` loaders enable editor preview, live data and Sentry. */
  routes: readonly RouteTableEntry[] & RouteTableOptions;
  layouts: Layouts;
}

/**
 * Starts the app on a prerendered page: reads the inlined boot data, loads the current page's chunk
 * (so the first client render matches the server's markup) and hydrates. Only that is first-load
 * JavaScript: navigation and the background work (prefetching, the route manifest, checks for a newer
 * build, editor preview, error reporting) load right after the first render (runtime/interactive.ts).
 */
export async function hydrate({ routes, layouts }: HydrateOptions): Promise<void> {
  const boot = readBootData();
  const container = document.getElementById(APP_ELEMENT_ID);
  if (!container) throw new Error(`The page has no #${APP_ELEMENT_ID} element to hydrate: check templates/document.html.`);
  // Errors are collected from here on; the Sentry SDK itself loads only after the first render.
  const collected = boot.config.sentryDsn && routes.errorReporting ? collectErrors() : null;

  const reloadEnv = createBrowserReloadEnv();
  const modules = new Map<string, PageModule>();
  const current = routes.find((r) => r.id === boot.routeId);
  let errorScreen: ComponentType<{ error: PageError }> | undefined;
  try {
    if (current) modules.set(current.id, await current.load());
    // 404.html shows the error screen from the start; other pages load it with the navigation.
    if (boot.error) errorScreen = (await import('./error-screen.tsx')).ErrorScreen;
  } catch {
    // The prerendered page stays readable; one guarded reload may fetch a newer build's chunks.
    reloadOnce(location.href, reloadEnv);
    return;
  }
  const store = createStore(initialState(boot, location, routes));
  const first = store.get();
  // The 100 ms handover (answers from the inlined data) starts as the app hydrates.
  configureLiveApi({
    endpoint: boot.config.graphqlEndpoint,
    load: routes.live,
    hydratedAt: performance.now(),
    initial: first.routeId && !first.error ? { routeId: first.routeId, params: first.params, data: first.data } : null,
  });
  const nav = createDeferredNavigation({
    routes,
    site: boot.site,
    store,
    modules,
    errorScreen,
    load: () =>
      import('./interactive.ts').then(({ startNavigation }) =>
        startNavigation({ routes, boot, store, modules, container, showBanner: (banner) => nav.showBanner(banner), reloadEnv, collected }),
      ),
    // Without the navigation chunk a link still works, as a document load.
    // `href` is a path of this site: resolved against the page, never as `//host`.
    fallback: (href, options) =>
      options.pop ? location.reload() : location.assign(new URL(href.replace(/^[/\\]{2,}/, '/'), location.href).href),
  });
  // Back and Forward: the address bar already shows the target.
  window.addEventListener('popstate', () => void nav.navigate(location.pathname + location.search + location.hash, { pop: true }));
  interceptLinks(container, (href) => void nav.navigate(href));
  const staticMarkup = container.innerHTML;

  hydrateRoot(container, <App nav={nav} layouts={layouts} staticMarkup={staticMarkup} onHydrated={() => void nav.ready()} />, {
    onUncaughtError: (error) => nav.fail(error),
    onRecoverableError: (error) => console.error('Recoverable render error:', error),
  });
}

// --- internal ---

/** The build's boot data, read once at start-up: the API endpoint and Sentry DSN come from here only. */
function readBootData(): BootData {
  const text = document.querySelector(BOOT_SELECTOR)?.textContent;
  if (!text) throw new Error(`The page has no #${BOOT_ELEMENT_ID} data: it was not written by this site's build.`);
  return JSON.parse(text) as BootData;
}
