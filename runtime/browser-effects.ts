import { isBot } from './bots.ts';
import type { BuildManifest } from './build-manifest.ts';
import { errorMessageFor } from './error-screen.tsx';
import { reportError } from './error-reporting.ts';
import type { NavigationEffects, NavigationState } from './navigation.ts';
import { confirmLoad, reloadOnce, type ReloadGuardEnv } from './reload-guard.ts';
import type { RouteDefinition } from './routes.ts';
import { createScrollMemory } from './scroll.ts';
import type { SiteData } from './shared/contract.ts';
import { siteInfoOf } from './site-context.ts';

export interface BrowserEffectsOptions {
  routes: readonly RouteDefinition[];
  site: SiteData;
  reloadEnv: ReloadGuardEnv;
  manifest: BuildManifest;
  isStale: () => boolean;
  /** Element whose text screen readers announce after a client navigation. */
  announcer: HTMLElement;
}

/** History, scrolling, focus, title and announcements for navigations in a real browser. */
export function createBrowserEffects({ routes, site, reloadEnv, manifest, isStale, announcer }: BrowserEffectsOptions): NavigationEffects {
  const scroll = createScrollMemory();
  return {
    hardNavigate: (url) => reloadOnce(url, reloadEnv),
    loaded: (path) => confirmLoad(path, reloadEnv),
    leave: (url) => reloadEnv.assign(url),
    ruleFor: (path) => manifest.ruleFor(path),
    manifest: () => manifest.ready(),
    isStale,
    report: (error) => reportError(error),
    showsErrorScreen(error) {
      if (!isBot(navigator.userAgent)) return true;
      // Crawlers keep the prerendered page: an error screen would be indexed as the page's content.
      console.error(`[site] Not rendering error page for bot with user agent \`${navigator.userAgent}\`:`, error.message);
      return false;
    },
    commitUrl(url, options) {
      if (options.pop) return;
      if (options.replace) history.replaceState(scroll.currentState(), '', url);
      else history.pushState(scroll.beforePush(), '', url);
    },
    afterCommit(state, previous, options) {
      document.title = titleFor(state, routes, site);
      // New data for the same page (editor login or logout): the visitor stays where they are.
      if (options.refresh) return;
      scroll.apply(state, previous, options);
      if (state.path === previous.path && state.error === previous.error) return;
      // A new page: move focus to it and tell screen readers which page it is.
      document.getElementById('main')?.focus({ preventScroll: true });
      announcer.textContent = document.title;
    },
  };
}

/** `document.title` for a committed state, the same text the build puts in `<title>`. */
export function titleFor(state: NavigationState, routes: readonly RouteDefinition[], site: SiteData): string {
  const siteName = siteInfoOf(site).name;
  if (state.error) return joinTitle(errorMessageFor(state.error), siteName);
  const route = routes.find((r) => r.id === state.routeId);
  return route ? joinTitle(route.head(state.data, state.params, site).title, siteName) : siteName;
}

/** `Page title | Site name`, or just the site name for the home page. */
export function joinTitle(title: string, siteName: string): string {
  return !title || title === siteName ? siteName : siteName ? `${title} | ${siteName}` : title;
}
