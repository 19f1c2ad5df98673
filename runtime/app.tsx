import { Component, useEffect, useLayoutEffect, useMemo, useSyncExternalStore, type ErrorInfo, type ReactElement, type ReactNode } from 'react';
import { Route, Router, Switch } from 'wouter';
import type { BaseLocationHook } from 'wouter';
import { ErrorScreen } from './error-screen.tsx';
import type { Navigation } from './navigation.ts';
import { PreviewBanner, usePreview, type PreviewState } from './preview.tsx';
import type { Layouts } from './routes.ts';
import { SiteContext } from './site-context.ts';

export interface AppProps {
  nav: Navigation;
  layouts: Layouts;
  /** The prerendered markup, kept for crawlers whose first page fails to render (browser only). */
  staticMarkup?: string;
  /** Editor preview (browser only): the banner shows while it is on. */
  preview?: PreviewState;
}

/** The single application root: the error screen, or the routed page inside its layout (SPEC.md section 2). */
export function App({ nav, layouts, staticMarkup, preview }: AppProps): ReactElement {
  const state = useSyncExternalStore(nav.subscribe, nav.getState, nav.getState);
  const previewOn = usePreview(preview);
  const hooks = useMemo(() => createLocationHooks(nav), [nav]);
  // useLayoutEffect never runs on the server, and on the client runs before paint: scroll without a flash.
  useLayoutEffect(() => nav.didRender(state), [nav, state]);
  // A marker for tests and tooling that React now owns the page (effects run only after hydration).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);

  if (state.staticFallback && staticMarkup !== undefined) return <div className="static-fallback" dangerouslySetInnerHTML={{ __html: staticMarkup }} />;
  const route = state.routeId ? nav.routes.find((r) => r.id === state.routeId) : undefined;
  const Layout = layouts[route?.layout ?? 'default'];
  return (
    <SiteContext.Provider value={nav.site}>
      {previewOn && preview ? <PreviewBanner preview={preview} /> : null}
      <Router hook={hooks.location} searchHook={hooks.search}>
        {state.error || !route ? (
          <ErrorScreen error={state.error ?? { status: 404, message: `Page not found: ${state.path}`, fatal: false }} />
        ) : (
          <div className="layout-root" data-layout={route.layout ?? 'default'} data-route={route.id}>
            <Layout>
              <PageBoundary key={state.path} nav={nav}>
                <Switch>
                  {nav.routes.map((r) => (
                    <Route key={r.id} path={r.path}>
                      <PageHost nav={nav} routeId={r.id} />
                    </Route>
                  ))}
                </Switch>
              </PageBoundary>
            </Layout>
          </div>
        )}
      </Router>
    </SiteContext.Provider>
  );
}

// --- internal ---

function PageHost({ nav, routeId }: { nav: Navigation; routeId: string }): ReactElement {
  const state = nav.getState();
  const Page = nav.moduleFor(routeId)?.default;
  if (!Page) throw new Error(`The page module for route '${routeId}' was rendered before it loaded.`);
  return <Page data={state.data} params={state.params} />;
}

function createLocationHooks(nav: Navigation): { location: BaseLocationHook; search: () => string } {
  const getPath = (): string => nav.getState().path;
  const getSearch = (): string => nav.getState().search.replace(/^\?/, '');
  const navigate = (to: string | URL, options?: { replace?: boolean }): void => {
    void nav.navigate(String(to), { replace: options?.replace });
  };
  return {
    location: () => [useSyncExternalStore(nav.subscribe, getPath, getPath), navigate],
    search: () => useSyncExternalStore(nav.subscribe, getSearch, getSearch),
  };
}

class PageBoundary extends Component<{ nav: Navigation; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Page failed to render', error, info.componentStack);
    this.props.nav.fail(error);
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
