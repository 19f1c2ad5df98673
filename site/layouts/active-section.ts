import type { NavItemData } from '../queries/site.ts';

/**
 * Which navigation item the current page belongs to. Publication pages live under the singular
 * `/publication/...` prefix (docs/decisions/route-table.md) while the section is `/publications`, so paths are mapped to
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
  let best: { href: string; target: string } | null = null;
  for (const item of sectionsOf(items)) {
    const { target } = item;
    const matches = target === '/' ? current === '/' : current === target || current.startsWith(target + '/');
    if (matches && (best === null || target.length > best.target.length)) best = item;
  }
  return best?.href ?? null;
}

// The navigation is one object for a whole build (and a whole visit): its items' sections are worked out once.
const sections = new WeakMap<readonly NavItemData[], readonly { href: string; target: string }[]>();

function sectionsOf(items: readonly NavItemData[]): readonly { href: string; target: string }[] {
  let known = sections.get(items);
  if (!known) {
    known = items.filter((item) => item.href.startsWith('/')).map((item) => ({ href: item.href, target: sectionPath(item.href) }));
    sections.set(items, known);
  }
  return known;
}
