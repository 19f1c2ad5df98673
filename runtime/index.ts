/** The runtime's public API for site code. */
export { hydrate } from './hydrate.tsx';
export { defineRoutes, type LayoutProps, type Layouts, type PageHead, type PageProps, type RouteDefinition, type RouteParams } from './routes.ts';
export { useSite } from './site-context.ts';
export { Link } from 'wouter';
