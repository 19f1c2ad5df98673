import type { ReactElement, ReactNode } from 'react';
import { Link, Route, Router, Switch, useLocation, useParams, useSearch } from 'wouter';
import type { AppNavigation } from '../../../runtime/app.tsx';
import { createStore, type NavigationState } from '../../../runtime/navigation-state.ts';
import type { Layouts, PageModule, RouteTableEntry } from '../../../runtime/routes.ts';

/**
 * A page that routes with more of wouter than the sample site's pages do: a <Switch> of <Route>s with
 * params read by useParams, and a nested <Router base> whose useLocation, useSearch and <Link> are relative
 * to its base. tests/e2e/wouter.spec.ts renders it inside the runtime's App on the server and hydrates
 * it in the browser from a bundle built with the site's client plugins.
 */
function People(): ReactElement {
  return (
    <Switch>
      <Route path="/people/:name" component={Person} />
      <Route>Nobody</Route>
    </Switch>
  );
}

function Person(): ReactElement {
  const { name } = useParams<{ name: string }>();
  return (
    <main>
      <h1>{name}</h1>
      <Router base="/people">
        <Directory />
      </Router>
    </main>
  );
}

function Directory(): ReactElement {
  const [here, navigate] = useLocation();
  const search = useSearch();
  return (
    <nav>
      <p id="here">{`${here}?${search}`}</p>
      <Link href="/grace" className={(active) => (active ? 'current' : 'other')}>
        Grace
      </Link>
      <button type="button" onClick={() => navigate('/lin?tab=papers', { replace: true })}>
        Lin
      </button>
    </nav>
  );
}

/** A navigation wouter asked the app for. */
export interface Recorded {
  to: string;
  replace: boolean;
}

/**
 * The app's navigation for this page: a real navigation store, and a `navigate` that records its call and
 * commits the target at once (no payload, no history: the URL stays, so a URL change would be wouter's own).
 */
export function createFixtureNavigation(href: string, recorded: Recorded[] = []): AppNavigation {
  const store = createStore(stateAt(href));
  return {
    routes,
    site: {},
    getState: store.get,
    subscribe: store.subscribe,
    moduleFor: () => page,
    errorScreen: () => {
      throw new Error('This page has no error screen.');
    },
    navigate: async (to, options) => {
      recorded.push({ to, replace: options?.replace ?? false });
      store.set(stateAt(to));
    },
    fail: (error) => console.error('The page failed:', error),
    didRender: () => undefined,
  };
}

const Plain = ({ children }: { children: ReactNode }): ReactElement => <>{children}</>;
export const layouts: Layouts = { default: Plain, home: Plain };

const page: PageModule = { default: People };
const routes: RouteTableEntry[] = [{ id: 'people', page: 'people', path: '/people/:name', load: () => Promise.resolve(page) }];

function stateAt(href: string): NavigationState {
  const url = new URL(href, 'http://fixture.invalid');
  return { path: url.pathname, search: url.search, hash: url.hash, routeId: 'people', params: {}, data: null, error: null };
}
