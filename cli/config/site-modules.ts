import type { RouteRule } from '../../runtime/shared/contract.ts';
import type { Layouts, PageModule, RouteDefinition } from '../../runtime/routes.ts';
import type { ChangeFeedDefinition, OutputDefinition, RouteDataDefinition, SiteDataDefinition } from '../../runtime/shared/route-data.ts';

/** The site's code as the build sees it: both halves of the route table, layouts, and every page module. */
export interface SiteModules {
  routes: readonly RouteDefinition[];
  routeData: Readonly<Record<string, RouteDataDefinition>>;
  siteData: SiteDataDefinition;
  /** The backend's change feed (site/routes.build.ts), when it has one. */
  changeFeed?: ChangeFeedDefinition;
  layouts: Layouts;
  /** Extra outputs (feeds, calendars) from site/outputs.build.ts. */
  outputs: readonly OutputDefinition[];
  /** Route rules (redirects) from site/site.config.ts. */
  routeRules: Readonly<Record<string, RouteRule>>;
  /** What the site search leaves out of a page's main content (site/site.config.ts). */
  search: { exclude: readonly string[] };
  /** How images inside rich text show (site/site.config.ts). */
  images: { richTextSizes: string };
  /** Every route's page module, loaded up front so rendering is synchronous. */
  modules: Map<string, PageModule>;
}

/** Imports site/ (routes, routes.build, layouts) and loads every page module. */
export async function loadSiteModules(): Promise<SiteModules> {
  const [{ routes }, { routeData, siteData, changeFeed }, { layouts }, { outputs }, { routeRules, search, images }] = await Promise.all([
    import('../../site/routes.ts'),
    import('../../site/routes.build.ts'),
    import('../../site/layouts/index.ts'),
    import('../../site/outputs.build.ts'),
    import('../../site/site.config.ts'),
  ]);
  const modules = new Map<string, PageModule>();
  await Promise.all(routes.map(async (r: RouteDefinition) => modules.set(r.id, await r.load())));
  return { routes, routeData, siteData, changeFeed, layouts, outputs, routeRules, search, images, modules };
}

/** The backend's change feed the site declares (site/routes.build.ts), without loading the rest of the site. */
export async function loadChangeFeed(): Promise<{ changeFeed?: ChangeFeedDefinition }> {
  const { changeFeed } = await import('../../site/routes.build.ts');
  return { changeFeed };
}
