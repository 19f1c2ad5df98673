import type { NavItemData } from '../queries/site.ts';

/**
 * Which navigation item the current page belongs to. Publication pages live under the singular
 * `/publication/...` prefix (SPEC.md section 2) while the section is `/publications`, so paths are mapped to
 * their section before matching. The most specific item wins, so a nav that lists both `/about` and
 * `/about/people` marks only one of them.
 */

const SECTION_ALIASES: Record<string, string> = { publication: 'publications' };

function sectionPath(path: string): string {
  const clean = path.replace(/[?#].*$/, '').replace(/\/+$/, '') || '/';
  const [first, ...rest] = clean.split('/').filter(Boolean);
  if (first === undefined) return '/';
  return '/' + [SECTION_ALIASES[first] ?? first, ...rest].join('/');
}

/** The href of the active item, or null when the page belongs to no item (or the href is external). */
export function activeHref(items: readonly NavItemData[], path: string): string | null {
  const current = sectionPath(path);
  let best: string | null = null;
  for (const item of items) {
    if (!item.href.startsWith('/')) continue;
    const target = sectionPath(item.href);
    const matches = target === '/' ? current === '/' : current === target || current.startsWith(target + '/');
    if (matches && (best === null || target.length > sectionPath(best).length)) best = item.href;
  }
  return best;
}
