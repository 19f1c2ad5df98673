import {
  Component,
  useEffect,
  useLayoutEffect,
  useSyncExternalStore,
  type ComponentType,
  type ErrorInfo,
  type ReactElement,
  type ReactNode,
} from 'react';
import { Router } from 'wouter';
import { LocationContext, useNavigationLocation, useNavigationSearch } from './location.ts';
import type { Navigation } from './navigation.ts';
import type { Layouts } from './routes.ts';
import type { PageError } from './shared/contract.ts';
import { SiteContext } from './site-context.ts';

/** What the app needs of the navigation: its state, and where to send navigations and errors. */
export interface AppNavigation
  extends Pick<Navigation, 'routes' | 'site' | 'getState' | 'subscribe' | 'moduleFor' | 'errorScreen' | 'navigate' | 'fail' | 'didRender'> {
  /** What the app shows above the page (the editor-preview banner) once its code has loaded; never on the server. */
  readonly banner?: Slot;
}

/** A component that arrives after the first render, and the way to hear that it has. */
export interface Slot {
  get(): ComponentType | null;
  subscribe(listener: () => void): () => void;
}

export interface AppProps {
  nav: AppNavigation;
  layouts: Layouts;
  /** The prerendered markup, kept for crawlers whose first page fails to render (browser only). */
  staticMarkup?: string;
  /** Called once React owns the page (browser only). */
  onHydrated?: () => void;
}

/** The single application root: the error screen, or the routed page inside its layout (docs/decisions/navigation-by-payloads.md). */
export function App({ nav, layouts, staticMarkup, onHydrated }: AppProps): ReactElement {
  const state = useSyncExternalStore(nav.subscribe, nav.getState, nav.getState);
  // useLayoutEffect never runs on the server, and on the client runs before paint: scroll without a flash.
  useLayoutEffect(() => nav.didRender(state), [nav, state]);
  // A marker for tests and tooling that React now owns the page (effects run only after hydration), and,
  // once, the signal to load what the first render did not need.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
    onHydrated?.();
  }, []);

  if (state.staticFallback && staticMarkup !== undefined)
    return <div className="static-fallback" dangerouslySetInnerHTML={{ __html: staticMarkup }} />;
  const route = state.routeId ? nav.routes.find((r) => r.id === state.routeId) : undefined;
  const Layout = layouts[route?.layout ?? 'default'];
  return (
    <SiteContext.Provider value={nav.site}>
      <LocationContext.Provider value={nav}>
        {nav.banner ? <SlotView slot={nav.banner} /> : null}
        {/* Site code reads the location with wouter's hooks, which this Router feeds from the navigation store (location.ts), on the server and in the browser. */}
        <Router hook={useNavigationLocation} searchHook={useNavigationSearch}>
          {state.error || !route ? (
            <ErrorView nav={nav} error={state.error ?? { status: 404, message: `Page not found: ${state.path}`, fatal: false }} />
          ) : (
            <div className="layout-root" data-layout={route.layout ?? 'default'} data-route={route.id}>
              <Layout>
                <PageBoundary key={state.path} nav={nav}>
                  <PageHost nav={nav} routeId={route.id} />
                </PageBoundary>
              </Layout>
            </div>
          )}
        </Router>
      </LocationContext.Provider>
    </SiteContext.Provider>
  );
}

// --- internal ---

const empty = (): null => null;

function SlotView({ slot }: { slot: Slot }): ReactElement | null {
  // Empty while hydrating, as on the server.
  const Filled = useSyncExternalStore(slot.subscribe, slot.get, empty);
  return Filled ? <Filled /> : null;
}

function ErrorView({ nav, error }: { nav: AppNavigation; error: PageError }): ReactElement {
  const ErrorScreen = nav.errorScreen();
  return <ErrorScreen error={error} />;
}

function PageHost({ nav, routeId }: { nav: AppNavigation; routeId: string }): ReactElement {
  const state = nav.getState();
  const Page = nav.moduleFor(routeId)?.default;
  if (!Page) throw new Error(`The page module for route '${routeId}' was rendered before it loaded.`);
  return <Page data={state.data} params={state.params} />;
}

class PageBoundary extends Component<{ nav: AppNavigation; children: ReactNode }, { failed: boolean }> {
  // Set in the constructor rather than as a class field, which es2020 output would need a helper for.
  constructor(props: { nav: AppNavigation; children: ReactNode }) {
    super(props);
    this.state = { failed: false };
  }

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
