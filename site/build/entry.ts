import type { RouteEntry } from '../../runtime/shared/route-data.ts';
import { isSlug, SLUG_PATTERN } from '../route-guards.ts';

/**
 * One page of a dynamic route. Typed so that an entry's data cannot drift from the route query's result
 * type. A slug the route table's `validate` would reject gives a page no visitor could navigate to, so it
 * fails the build instead.
 */
export function entry<TData>(params: Record<string, string>, data?: TData): RouteEntry {
  for (const [name, value] of Object.entries(params)) {
    if (!isSlug(value)) {
      throw new Error(`The backend returned the ${name} '${value}', which is not a valid slug (${SLUG_PATTERN}); fix it in the content.`);
    }
  }
  return data === undefined ? { params } : { params, data };
}

/** The items of a list cut into pages of `size`; an empty list is one empty page, so its list page still exists. */
export function chunk<T>(items: readonly T[], size: number): T[][] {
  if (items.length === 0) return [[]];
  const pages: T[][] = [];
  for (let i = 0; i < items.length; i += size) pages.push(items.slice(i, i + size));
  return pages;
}
