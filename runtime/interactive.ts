import type { ComponentType } from 'react';
import { createBrowserEffects } from './browser-effects.ts';
import { createBuildManifest } from './build-manifest.ts';
import { watchForNewBuild } from './build-updates.ts';
import type { CollectedErrors, ErrorReportingModule, ErrorReportingOptions } from './error-reporting.ts';
import { auth, isPreviewMode, loadLiveData, preview } from './live-api.ts';
import { createNavigation, type Navigation } from './navigation.ts';
import type { StateStore } from './navigation-state.ts';
import { createPayloadLoader } from './payload.ts';
import { previewBannerFor } from './preview.tsx';
import { confirmLoad, type ReloadGuardEnv } from './reload-guard.ts';
import type { PageModule, RouteDefinition, RouteTableEntry, RouteTableOptions } from './routes.ts';
import { scrollToHash } from './scroll.ts';
import { PAYLOAD_VERSION, type BootData } from './shared/contract.ts';

export interface InteractiveOptions {
  routes: readonly RouteTableEntry[] & RouteTableOptions;
  boot: BootData;
  store: StateStore;
  modules: Map<string, PageModule>;
  /** The element the app is hydrated into. */
  container: HTMLElement;
  /** Shows a component above the page, in the app (the editor-preview banner). */
  showBanner: (component: ComponentType) => void;
  reloadEnv: ReloadGuardEnv;
  /** The errors collected since the page loaded, when the build has a DSN and the route table an error-reporting chunk. */
  collected: CollectedErrors | null;
}

/**
 * Everything the page does once it is on screen, loaded right after the first render (runtime/hydrate.tsx):
 * client navigation with its effects (history, scrolling, focus, title, announcements), prefetching, the
 * route manifest, checks for a newer build, editor preview and error reporting. Returns the navigation.
 */
export async function startNavigation({
  routes,
  boot,
  store,
  modules,
  container,
  showBanner,
  reloadEnv,
  collected,
}: InteractiveOptions): Promise<Navigation> {
  // Checks and head fields of every route; a table of whole routes has them already.
  const loading = routes.definitions?.() ?? Promise.resolve(routes as readonly RouteTableEntry[] as readonly RouteDefinition[]);
  // The banner waits for nothing: an editor may log in on this very page (/login) while the rest loads.
  showBanner(previewBannerFor(preview));
  const definitions = await loading;
  const payloads = createPayloadLoader(boot.buildId);
  if (boot.path && !boot.error)
    payloads.prime({ v: PAYLOAD_VERSION, buildId: boot.buildId, path: boot.path, data: boot.data, prerenderedAt: '' });
  const manifest = createBuildManifest(boot.buildId);
  let stale = false;
  const nav = createNavigation({
    routes: definitions,
    boot,
    modules,
    store,
    location: window.location,
    payloads,
    live: { isPreview: isPreviewMode, load: loadLiveData },
    effects: createBrowserEffects({
      routes: definitions,
      site: boot.site,
      reloadEnv,
      manifest,
      isStale: () => stale,
      announcer: createAnnouncer(),
    }),
  });

  // Editor preview: pages show live data (drafts included) instead of the build's, from now on and after
  // every login or logout. A draft has no page in the build, so its URL serves 404.html: try the API there too.
  auth.subscribe(() => void nav.refresh());
  if (isPreviewMode())
    void (boot.error && !boot.routeId
      ? nav.navigate(location.pathname + location.search + location.hash, { replace: true })
      : nav.refresh());
  // The prerendered page with the build's data is a successful load (in preview, its live data is, once it arrives).
  else if (boot.path && boot.routeId && !boot.error) confirmLoad(boot.path, reloadEnv);

  if (location.hash) requestAnimationFrame(() => scrollToHash(location.hash, false));
  whenIdle(() => {
    // Prefetching is not needed before the visitor can click: its code loads once the page is idle.
    void import('./prefetch.ts').then(({ startPrefetch }) => startPrefetch({ root: container, preload: nav.preload }));
    manifest.schedulePrefetch();
    if (collected && boot.config.sentryDsn && routes.errorReporting) {
      void startSentry(
        collected,
        { dsn: boot.config.sentryDsn, release: boot.buildId, getToken: () => auth.getToken() },
        routes.errorReporting,
      );
    }
  });
  watchForNewBuild({ buildId: boot.buildId, interval: boot.config.buildCheckInterval, onNewBuild: () => (stale = true) });
  return nav;
}

// --- internal ---

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

/**
 * Loads Sentry with `load` and hands the collected errors over to it. Sentry's own global handlers take
 * over in the same task, so no error falls between the two.
 */
async function startSentry(
  collected: CollectedErrors,
  options: ErrorReportingOptions,
  load: () => Promise<ErrorReportingModule>,
): Promise<void> {
  try {
    const { initSentry } = await load();
    collected.handOver(initSentry(options));
  } catch (error) {
    collected.handOver(null);
    console.warn('[site] Error reporting could not start:', error);
  }
}

function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 1);
}
