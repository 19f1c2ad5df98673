import { PayloadError, type PayloadLoader } from './payload.ts';
import type { RouteDefinition, RouteParams } from './routes.ts';

/** Page data from the GraphQL API; the browser's implementation is runtime/live-api.ts. */
export interface LiveDataSource {
  /** True while an editor is logged in: pages show the API's data (drafts included) instead of the build's. */
  isPreview(): boolean;
  /** The route's data from the API (`fresh`: never from the cache); null when there is no API or no browser query for the route. */
  load(route: RouteDefinition, params: RouteParams, fresh: boolean): Promise<{ data: unknown } | null>;
}

/** Where a navigation's page data comes from. */
export interface PageDataLoader {
  /** The data for a page; rejects with the PayloadError when neither the payload nor the API can give it. */
  load(route: RouteDefinition, params: RouteParams, path: string): Promise<unknown>;
}

/**
 * Editor preview first (live data, so drafts show), then the build's payload, then, when the payload
 * cannot be used, the live API before anything else (the reference's rule, section 4.3): only when that
 * fails too does the caller fall back to a full page load.
 */
export function createPageDataLoader(
  payloads: PayloadLoader | undefined,
  live: LiveDataSource | undefined,
  isPrerendered: (path: string) => Promise<boolean | null> = async () => null,
): PageDataLoader {
  return {
    async load(route, params, path) {
      if (live?.isPreview()) {
        // The error hook has heard of a failure already; the build's data still shows the page.
        const fresh = await live.load(route, params, true).catch(() => null);
        if (fresh) return fresh.data;
      }
      if (!payloads) return null;
      try {
        // The build's manifest lists the paths that have a payload: for any other, no request (null: not known yet).
        if ((await isPrerendered(path)) === false) throw new PayloadError('not-found', path, 'is not prerendered in this build');
        return (await payloads.load(path)).data;
      } catch (error) {
        if (!(error instanceof PayloadError) || !live) throw error;
        const fallback = await live.load(route, params, false).catch(() => null);
        if (!fallback) throw error;
        return fallback.data;
      }
    },
  };
}
