import type { RouteRule } from '../runtime/shared/contract.ts';

/**
 * Route rules of the institute site, published in the build's route manifest
 * (builds/meta/{buildId}.json → matcher) and applied by the runtime on navigation.
 * Keys are exact paths or prefixes ending in `/**`. A redirect to an absolute URL is a full browser
 * redirect; one to a site path is a client-side redirect. The build also writes a small HTML page at
 * each exact redirect path, so a first visit (or a visitor without JavaScript) is redirected too.
 */
export const routeRules: Readonly<Record<string, RouteRule>> = {
  // The old name of the people directory, still linked from printed material.
  '/about/team': { redirect: '/about/people' },
  '/contact': { redirect: '/about/contact' },
  // The library catalogue is a separate system.
  '/library': { redirect: 'https://library.institute.example/' },
};
