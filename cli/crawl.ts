import type { RouteDefinition, RouteParams } from '../runtime/routes.ts';
import type { RouteDataContext, RouteDataDefinition } from '../runtime/shared/route-data.ts';
import { htmlFileFor } from '../runtime/shared/paths.ts';
import { BuildErrors, createBuildError, type PageFailure } from './errors.ts';
import { describeCause } from './format-error.ts';

/** One page to build. */
export interface PageJob {
  route: RouteDefinition;
  path: string;
  params: RouteParams;
  /** Present when the route's bulk list query already returned the page's data. */
  data?: unknown;
}

export interface CrawlResult {
  jobs: PageJob[];
  failures: PageFailure[];
}

/**
 * Expands the route table into pages: one per static route, one per entry of a dynamic route.
 * Fails on unsafe slugs and on two pages that map to the same file before any page query runs.
 */
export async function crawl(routes: readonly RouteDefinition[], routeData: Readonly<Record<string, RouteDataDefinition>>, ctx: RouteDataContext): Promise<CrawlResult> {
  const jobs: PageJob[] = [];
  const failures: PageFailure[] = [];
  await Promise.all(
    routes.map(async (route) => {
      const def = routeData[route.id];
      if (!def) throw new Error(`Route '${route.id}' (${route.path}) has no entry in site/routes.build.ts. Add one with its query.`);
      if (!route.path.includes(':')) {
        jobs.push({ route, path: route.path, params: {} });
        return;
      }
      if (!def.entries) throw new Error(`Route '${route.id}' (${route.path}) has params but no entries() in site/routes.build.ts. Add entries() listing its pages.`);
      try {
        for await (const entry of def.entries(ctx)) jobs.push({ route, path: pathFor(route, entry.params), params: entry.params, data: entry.data });
      } catch (cause) {
        if (isUnsafe(cause)) throw cause;
        failures.push({ page: route.path, route: route.id, operation: operationOf(cause), cause: describeCause(cause), fix: 'Check the list query of this route in site/queries against the backend.' });
      }
    }),
  );
  const order = new Map(routes.map((r, i) => [r.id, i]));
  jobs.sort((a, b) => (order.get(a.route.id) ?? 0) - (order.get(b.route.id) ?? 0) || compare(a.path, b.path));
  checkDuplicates(jobs);
  return { jobs, failures };
}

/** Builds a page path from a route pattern, rejecting params that could escape the output folder. */
export function pathFor(route: Pick<RouteDefinition, 'id' | 'path'>, params: RouteParams): string {
  return route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || !isSafeSegment(value)) {
      throw createBuildError(BuildErrors.UnsafePath, [String(value), `${route.id} (${route.path}), param '${name}'`]);
    }
    return value;
  });
}

/** A path segment that is safe as a folder name on every file system and needs no URL encoding. */
export function isSafeSegment(value: string): boolean {
  return /^[a-z0-9][a-z0-9._~-]{0,199}$/i.test(value) && !value.includes('..');
}

// --- internal ---

function checkDuplicates(jobs: readonly PageJob[]): void {
  const seen = new Map<string, string>();
  for (const job of jobs) {
    const key = htmlFileFor(job.path).toLowerCase();
    const other = seen.get(key);
    if (other !== undefined) throw createBuildError(BuildErrors.DuplicateOutput, [htmlFileFor(job.path), other, job.path]);
    seen.set(key, job.path);
  }
}

function isUnsafe(error: unknown): boolean {
  return (error as { code?: string })?.code === BuildErrors.UnsafePath.code;
}

function operationOf(error: unknown): string {
  return (error as { operation?: string })?.operation ?? 'entries';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
