import type { ReactElement } from 'react';
import { plural } from '../format/numbers.ts';

export interface ListCountProps {
  shown: number;
  total: number;
  /** Singular noun, e.g. "article". */
  noun: string;
  pluralNoun?: string;
  /** 1-based position of the first item shown, on later pages of a list. @default 1 */
  first?: number;
}

/** Says which part of a collection the page shows, since list pages embed one page of it. */
export function ListCount({ shown, total, noun, pluralNoun, first = 1 }: ListCountProps): ReactElement {
  const all = plural(total, noun, pluralNoun);
  if (shown >= total) return <p className="list-count">{all}.</p>;
  const last = first + shown - 1;
  return <p className="list-count">{`Showing ${shown === 1 ? first : `${first}–${last}`} of ${all}.`}</p>;
}

/** The sentence an empty list shows instead of nothing. */
export function EmptyState({ children }: { children: string }): ReactElement {
  return <p className="empty-state">{children}</p>;
}
