import { defineRoutes } from '../runtime/index.ts';
import { routeTable } from './route-table.ts';

/**
 * The route table the browser hydrates with: the entries of route-table.ts, whose whole routes (checks
 * and head fields, site/routes.ts) are needed from the first client navigation on, so they load after
 * the first render. Named here rather than in route-table.ts, which routes.ts imports.
 */
export const browserRoutes = defineRoutes([...routeTable], {
  live: routeTable.live,
  errorReporting: routeTable.errorReporting,
  definitions: () => import('./routes.ts').then((m) => m.routes),
});
