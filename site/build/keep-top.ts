import { compareText } from '../../runtime/shared/compare.ts';

/**
 * The first `size` items in an order, kept while items stream past: memory stays at `size` items however
 * many are offered. Ties are broken by the item's page path, so the result never depends on the order
 * the build happened to meet the pages in.
 */
export function keepTop<T>(
  size: number,
  compare: (a: T, b: T) => number,
): { offer(item: T, path: string): void; entries(): readonly { item: T; path: string }[] } {
  const kept: { item: T; path: string }[] = [];
  const order = (a: { item: T; path: string }, b: { item: T; path: string }): number =>
    compare(a.item, b.item) || compareText(a.path, b.path);
  return {
    offer(item, path) {
      const entry = { item, path };
      if (kept.length === size && order(entry, kept[size - 1]!) >= 0) return;
      let at = kept.length;
      while (at > 0 && order(entry, kept[at - 1]!) < 0) at--;
      kept.splice(at, 0, entry);
      if (kept.length > size) kept.pop();
    },
    entries: () => [...kept],
  };
}
