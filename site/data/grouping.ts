/**
 * Grouping of list items for display. Groups keep the order in which their first item arrived, because
 * the API already sorts each collection the way visitors read it (newest first, by category, ...).
 */

export interface Group<TKey, TItem> {
  key: TKey;
  items: TItem[];
}

export function groupBy<TKey, TItem>(items: readonly TItem[], keyOf: (item: TItem) => TKey): Group<TKey, TItem>[] {
  const groups = new Map<TKey, TItem[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return [...groups].map(([key, grouped]) => ({ key, items: grouped }));
}
