/** The browser entry: hydrate the prerendered page with this site's routes and layouts. */
import { hydrate } from '../runtime/index.ts';
import { layouts } from './layouts/index.ts';
import { routeTable } from './route-table.ts';

void hydrate({ routes: routeTable, layouts });
