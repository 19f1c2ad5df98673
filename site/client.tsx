/** The browser entry: hydrate the prerendered page with this site's routes and layouts. */
import { hydrate } from '../runtime/index.ts';
import { layouts } from './layouts/index.ts';
import { routes } from './routes.ts';

void hydrate({ routes, layouts });
