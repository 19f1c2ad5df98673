import type { RouteRule } from './contract.ts';

/**
 * Route rules keyed by pattern: an exact path (`/old`) or a prefix (`/old/**`, `/**`).
 * Every matching rule applies, the most specific winning per key (exact over prefix, longer
 * prefix over shorter), as the reference system's matcher does.
 */
export function matchRouteRules(matcher: Readonly<Record<string, RouteRule>>, path: string): RouteRule {
  const clean = stripTrailingSlash(path.split(/[?#]/)[0] ?? '/');
  const matches: { specificity: number; rule: RouteRule }[] = [];
  for (const [pattern, rule] of Object.entries(matcher)) {
    if (pattern.endsWith('/**')) {
      const prefix = pattern.slice(0, -3);
      if (clean === prefix || clean.startsWith(prefix + '/') || prefix === '') matches.push({ specificity: prefix.length, rule });
    } else if (stripTrailingSlash(pattern) === clean) {
      matches.push({ specificity: Number.MAX_SAFE_INTEGER, rule });
    }
  }
  matches.sort((a, b) => a.specificity - b.specificity);
  return Object.assign({}, ...matches.map((m) => m.rule)) as RouteRule;
}

/** True for a redirect target that leaves the site: it has a scheme or is protocol-relative. */
export function isExternalTarget(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

// --- internal ---

function stripTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
