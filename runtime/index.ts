/** The runtime's public API for site code. */
export { hydrate } from './hydrate.tsx';
export {
  defineRoutes,
  type LayoutProps,
  type Layouts,
  type LiveQuery,
  type PageHead,
  type PageProps,
  type RouteDefinition,
  type RouteDetails,
  type RouteTableEntry,
  type RouteParams,
} from './routes.ts';
export { useSite } from './site-context.ts';
export { Link, type LinkProps } from './link.tsx';
export { SharedMarkup } from './shared-markup.ts';
export {
  fetchViewer,
  getGraphQLClient,
  isLiveApiAvailable,
  isPreviewMode,
  LiveApiUnavailableError,
  login,
  logout,
  setGraphQLErrorHook,
  setTokenHook,
  VIEWER_QUERY,
  type GraphQLErrorHook,
} from './live-api.ts';
export { TOKEN_COOKIE, type TokenHook } from './auth.ts';
export type { FetchPolicy, RuntimeGraphQLClient } from './graphql-client.ts';
export { reportError } from './error-reporting.ts';
