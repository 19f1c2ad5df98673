import { hydrateRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { createBrowserEffects } from './browser-effects.ts';
import { createBuildManifest } from './build-manifest.ts';
import { watchForNewBuild } from './build-updates.ts';
import { startErrorReporting } from './error-reporting.ts';
import { interceptLinks } from './intercept-links.ts';
import { auth, configureLiveApi, isPreviewMode, loadLiveData, preview } from './live-api.ts';
import { createNavigation } from './navigation.ts';
import { createPayloadLoader } from './payload.ts';
import { createBrowserReloadEnv, reloadOnce } from './reload-guard.ts';
import { findRoute, type Layouts, type PageModule, type RouteDefinition, type RouteTableOptions } from './routes.ts';
import { scrollToHash } from './scroll.ts';
import { APP_ELEMENT_ID, BOOT_ELEMENT_ID } from './shared/document-ids.ts';
import { PAYLOAD_VERSION, type BootData } from './shared/contract.ts';

export interface HydrateOptions {
  /** The route table; its `live` and `errorReporting` loaders enable editor preview, live data and Sentry. */
  routes: readonly RouteDefinition[] & RouteTableOptions;
  layouts: Layouts;
}

/**
 * Starts the app on a prerendered page: reads the inlined boot data, loads the current page's chunk
 * (so the first client render matches the server's markup), hydrates, then starts the background
 * work: link prefetching, the route manifest (about 1 s later) and checks for a newer build.
 */
export async function hydrate({ routes, layouts }: HydrateOptions): Promise<void> {
  const boot = readBootData();
  const container = document.getElementById(APP_ELEMENT_ID);
  if (!container) throw new Error(`The page has no #${APP_ELEMENT_ID} element to hydrate: check templates/document.html.`);
  // Errors are collected from here on; the Sentry SDK itself loads only after the first render.
  const startReporting =
    boot.config.sentryDsn && routes.errorReporting ? startErrorReporting({ dsn: boot.config.sentryDsn, release: boot.buildId, getToken: () => auth.getToken() }, routes.errorReporting) : null;

  const reloadEnv = createBrowserReloadEnv();
  const modules = new Map<string, PageModule>();
  const current = routes.find((r) => r.id === boot.routeId);
  if (current) {
    try {
      modules.set(current.id, await current.load());
    } catch {
      // The prerendered page stays readable; one guarded reload may fetch a newer build's chunks.
      reloadOnce(location.href, reloadEnv);
      return;
    }
  }

  const payloads = createPayloadLoader(boot.buildId);
  if (boot.path && !boot.error) payloads.prime({ v: PAYLOAD_VERSION, buildId: boot.buildId, path: boot.path, data: boot.data, prerenderedAt: '' });
  const manifest = createBuildManifest(boot.buildId);
  const first = !boot.error && boot.routeId && boot.path ? { routeId: boot.routeId, params: findRoute(routes, boot.path)?.params ?? {}, data: boot.data } : null;
  // The 100 ms handover (answers from the inlined data) starts as the app hydrates.
  configureLiveApi({ endpoint: boot.config.graphqlEndpoint, load: routes.live, hydratedAt: performance.now(), initial: first });
  let stale = false;
  const nav = createNavigation({
    routes,
    boot,
    modules,
    location: window.location,
    payloads,
    live: { isPreview: isPreviewMode, load: loadLiveData },
    effects: createBrowserEffects({ routes, site: boot.site, reloadEnv, manifest, isStale: () => stale, announcer: createAnnouncer() }),
  });
  // Back and Forward: the address bar already shows the target.
  window.addEventListener('popstate', () => void nav.navigate(location.pathname + location.search + location.hash, { pop: true }));
  interceptLinks(container, (href) => void nav.navigate(href));
  const staticMarkup = container.innerHTML;

  hydrateRoot(container, <App nav={nav} layouts={layouts} staticMarkup={staticMarkup} preview={preview} />, {
    onUncaughtError: (error) => nav.fail(error),
    onRecoverableError: (error) => console.error('Recoverable render error:', error),
  });

  // Editor preview: pages show live data (drafts included) instead of the build's, from now on and after
  // every login or logout. A draft has no page in the build, so its URL serves 404.html: try the API there too.
  auth.subscribe(() => void nav.refresh());
  if (isPreviewMode()) void (boot.error && !boot.routeId ? nav.navigate(location.pathname + location.search + location.hash, { replace: true }) : nav.refresh());

  if (location.hash) requestAnimationFrame(() => scrollToHash(location.hash, false));
  whenIdle(() => {
    // Prefetching is not needed for the first render: its code loads once the page is idle.
    void import('./prefetch.ts').then(({ startPrefetch }) => startPrefetch({ root: container, preload: nav.preload }));
    manifest.schedulePrefetch();
    void startReporting?.();
  });
  watchForNewBuild({ buildId: boot.buildId, interval: boot.config.buildCheckInterval, onNewBuild: () => (stale = true) });
}

// --- internal ---

function readBootData(): BootData {
  const text = document.getElementById(BOOT_ELEMENT_ID)?.textContent;
  if (!text) throw new Error(`The page has no #${BOOT_ELEMENT_ID} data: it was not written by this site's build.`);
  return JSON.parse(text) as BootData;
}

/** A visually hidden live region outside React's tree, so announcing never touches hydrated markup. */
function createAnnouncer(): HTMLElement {
  const region = document.createElement('p');
  region.id = 'route-announcer';
  region.setAttribute('aria-live', 'assertive');
  region.setAttribute('aria-atomic', 'true');
  region.className = 'visually-hidden';
  document.body.append(region);
  return region;
}

function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 1);
}
