import type { ReactNode } from 'react';

/**
 * wouter as the browser build provides it (rollup.config.ts resolves `wouter` here): the part of its API
 * that site code and the app use (Router, useLocation, useSearch, Link), on the runtime's navigation store,
 * which the app provides. wouter itself stays on the server, where site code renders inside its Router as it
 * always has (the app's, or a test's), but none of its code is first-load JavaScript. A wouter export not
 * listed here fails the browser build, so the two cannot silently differ.
 */

export { Link } from './link.tsx';
export { useLocation, useSearch } from './location.ts';

/** The app already provides the location (runtime/location.ts): the browser's Router only renders its children. */
export function Router({ children }: { children?: ReactNode }): ReactNode {
  return children;
}
