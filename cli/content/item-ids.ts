/**
 * The ids of the items a page's data holds: the `id` of every object in it, at any depth, once each, in
 * the order first met. With the change feed, a page whose data held none of the changed items' ids (and
 * whose route's query names every changed type's items by id: content/types-read.ts typesWithoutIds)
 * cannot show a change (build/incremental/changed-routes.ts).
 */
export function itemIdsIn(data: unknown): string[] {
  const ids = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) walk(item);
      return;
    }
    const id = (value as { id?: unknown }).id;
    if (typeof id === 'string' || typeof id === 'number') ids.add(String(id));
    for (const key in value) walk((value as Record<string, unknown>)[key]);
  };
  walk(data);
  return [...ids];
}
