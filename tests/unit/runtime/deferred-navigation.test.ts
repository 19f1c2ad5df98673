import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createDeferredNavigation } from '../../../runtime/deferred-navigation.ts';
import { ErrorScreen } from '../../../runtime/error-screen.tsx';
import { createNavigation, type Navigation } from '../../../runtime/navigation.ts';
import { createStore, initialState } from '../../../runtime/navigation-state.ts';
import type { PageModule, RouteDefinition } from '../../../runtime/routes.ts';
import type { BootData } from '../../../runtime/shared/contract.ts';

/** The page as hydrate starts it: /a prerendered, the navigation chunk not loaded yet. */
function setUp() {
  const page = { default: (): ReactElement | null => null } satisfies PageModule;
  const routes: RouteDefinition[] = [
    { id: 'a', page: 'a', path: '/a', load: () => Promise.resolve(page), head: () => ({ title: 'A', description: '' }) },
    { id: 'b', page: 'b', path: '/b/:slug', load: () => Promise.resolve(page), head: () => ({ title: 'B', description: '' }) },
  ];
  const boot: BootData = {
    buildId: 'build-1',
    path: '/a',
    routeId: 'a',
    data: { title: 'A' },
    site: {},
    error: null,
    config: { buildCheckInterval: 3_600_000, graphqlEndpoint: null, sentryDsn: null },
  };
  const location = { pathname: '/a', search: '', hash: '' };
  const store = createStore(initialState(boot, location, routes));
  const modules = new Map<string, PageModule>([['a', page]]);
  // The navigation chunk: the real navigation on the same store and modules, loaded when the test says so.
  let finish: (ok: boolean) => void = () => undefined;
  const load = vi.fn(
    () =>
      new Promise<Navigation>((resolve, reject) => {
        finish = (ok) =>
          ok
            ? resolve(createNavigation({ routes, boot, modules, location, store }))
            : reject(new TypeError('Failed to fetch dynamically imported module'));
      }),
  );
  const fallback = vi.fn();
  const nav = createDeferredNavigation({ routes, site: boot.site, store, modules, load, fallback });
  return { nav, store, load, fallback, page, finish: (ok = true) => finish(ok) };
}

describe('the navigation a page hydrates with', () => {
  it("renders the prerendered page's state and loads no navigation code until it is needed", () => {
    const { nav, load, page } = setUp();
    expect(nav.getState()).toMatchObject({ path: '/a', routeId: 'a', params: {}, error: null });
    expect(nav.moduleFor('a')).toBe(page);
    expect(nav.moduleFor('b')).toBeUndefined();
    expect(load).not.toHaveBeenCalled();
  });

  it('makes a click before the navigation chunk has loaded a client navigation once it has', async () => {
    const { nav, store, load, fallback, finish } = setUp();
    const navigating = nav.navigate('/b/hello');
    expect(store.get().path).toBe('/a');
    finish();
    await navigating;
    expect(store.get()).toMatchObject({ path: '/b/hello', routeId: 'b', params: { slug: 'hello' }, error: null });
    expect(load).toHaveBeenCalledTimes(1);
    expect(fallback).not.toHaveBeenCalled();
  });

  it('loads the navigation chunk once, however many calls wait for it', async () => {
    const { nav, load, finish } = setUp();
    const waiting = [nav.ready(), nav.navigate('/b/one'), nav.navigate('/b/two'), nav.ready()];
    finish();
    await Promise.all(waiting);
    expect(load).toHaveBeenCalledTimes(1);
    expect(nav.getState().path).toBe('/b/two');
  });

  it('loads the page as a document when the navigation chunk will not load, and tries the chunk again next time', async () => {
    const { nav, store, load, fallback, finish } = setUp();
    const first = nav.navigate('/b/x', { pop: true });
    finish(false);
    await first;
    expect(fallback).toHaveBeenCalledWith('/b/x', { pop: true });
    expect(store.get().path).toBe('/a');

    const second = nav.navigate('/b/y');
    finish(true);
    await second;
    expect(load).toHaveBeenCalledTimes(2);
    expect(store.get().path).toBe('/b/y');
  });

  it('shows an error raised while hydrating once the navigation has loaded', async () => {
    const { nav, store, finish } = setUp();
    nav.fail(new Error('The page broke.'));
    finish();
    await nav.ready();
    expect(store.get().error).toEqual({ status: 500, message: 'The page broke.', fatal: true });
  });

  it('shows what arrives after the first render (the editor-preview banner) above the page, and tells the app', () => {
    const { nav } = setUp();
    const heard = vi.fn();
    nav.banner.subscribe(heard);
    expect(nav.banner.get()).toBeNull();
    const Banner = (): ReactElement | null => null;
    nav.showBanner(Banner);
    expect(nav.banner.get()).toBe(Banner);
    expect(heard).toHaveBeenCalledTimes(1);
  });

  it("uses the error screen loaded with 404.html until the navigation brings its own, and the navigation's after-render effects only once it has loaded", async () => {
    const early = (): ReactElement | null => null;
    const navigation = { errorScreen: () => ErrorScreen, didRender: vi.fn() } as unknown as Navigation;
    const nav = createDeferredNavigation({
      routes: [],
      site: {},
      store: createStore({
        path: '/x',
        search: '',
        hash: '',
        routeId: null,
        params: {},
        data: null,
        error: { status: 404, message: 'Page not found: /x', fatal: false },
      }),
      modules: new Map(),
      errorScreen: early,
      load: () => Promise.resolve(navigation),
      fallback: () => undefined,
    });
    expect(nav.errorScreen()).toBe(early);
    nav.didRender(nav.getState());
    await nav.ready();
    expect(nav.errorScreen()).toBe(ErrorScreen);
    nav.didRender(nav.getState());
    expect(navigation.didRender).toHaveBeenCalledTimes(1);
  });
});
