/** The browser entry: hydrate the prerendered page with this site's routes and layouts. */
import { hydrate } from '../runtime/index.ts';
import { browserRoutes } from './browser-routes.ts';
import { layouts } from './layouts/index.ts';

void hydrate({ routes: browserRoutes, layouts });
