import { compareText } from '../../runtime/shared/compare.ts';

/**
 * The level filter of the course list: which levels exist, which one the address asks for, and the
 * address of each choice. The filter lives in the query string (`?level=Master`) so it can be shared and
 * survives Back and Forward; changing only the query fetches nothing (docs/decisions/navigation-by-payloads.md).
 */

/** Study levels in the order students progress through them; others follow alphabetically. */
const LEVEL_ORDER = ['Bachelor', 'Master', 'PhD', 'Open'];

/** The distinct levels of a list of courses, in study order. */
export function levelsOf(courses: readonly { level: string }[]): string[] {
  const levels = [...new Set(courses.map((course) => course.level).filter(Boolean))];
  const rank = (level: string): number => {
    const i = LEVEL_ORDER.indexOf(level);
    return i === -1 ? LEVEL_ORDER.length : i;
  };
  // Code-point order, not localeCompare: the build's ICU and the browser's may collate differently.
  return levels.sort((a, b) => rank(a) - rank(b) || compareText(a, b));
}

/** The level a query string selects, or null for "all levels" (also for a level the list does not have). */
export function levelFromSearch(search: string, levels: readonly string[]): string | null {
  const wanted = new URLSearchParams(search).get('level');
  return wanted !== null && levels.includes(wanted) ? wanted : null;
}

/** The address of one choice of the filter on the page at `path`. */
export function levelHref(path: string, level: string | null): string {
  return level === null ? path : `${path}?${new URLSearchParams({ level }).toString()}`;
}
