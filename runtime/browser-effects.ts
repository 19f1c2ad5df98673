import type { NavigateOptions, NavigationEffects, NavigationState } from './navigation.ts';
import { errorMessageFor } from './error-screen.tsx';
import { reloadOnce, type ReloadGuardEnv } from './reload-guard.ts';
import type { RouteDefinition } from './routes.ts';
import type { SiteData } from './shared/contract.ts';
import { siteInfoOf } from './site-context.ts';

/** History, scrolling, focus and title updates for navigations in a real browser. */
export function createBrowserEffects(routes: readonly RouteDefinition[], site: SiteData, reloadEnv: ReloadGuardEnv): NavigationEffects {
  return {
    hardNavigate: (url) => reloadOnce(url, reloadEnv),
    commitUrl(url, options) {
      if (options.pop) return;
      if (options.replace) history.replaceState(null, '', url);
      else history.pushState(null, '', url);
    },
    afterCommit(state: NavigationState, options: NavigateOptions) {
      document.title = titleFor(state, routes, site);
      if (options.pop) return;
      if (state.hash) {
        document.getElementById(decodeURIComponent(state.hash.slice(1)))?.scrollIntoView();
      } else {
        window.scrollTo(0, 0);
      }
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
