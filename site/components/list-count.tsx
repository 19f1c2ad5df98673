import type { ReactElement } from 'react';
import { plural } from '../format/numbers.ts';

export interface ListCountProps {
  shown: number;
  total: number;
  /** Singular noun, e.g. "article". */
  noun: string;
  pluralNoun?: string;
}

/** Says how much of a collection the page shows, since list pages embed only their first page. */
export function ListCount({ shown, total, noun, pluralNoun }: ListCountProps): ReactElement {
  const all = plural(total, noun, pluralNoun);
  return <p className="list-count">{shown < total ? `Showing ${shown} of ${all}.` : `${all}.`}</p>;
}

/** The sentence an empty list shows instead of nothing. */
export function EmptyState({ children }: { children: string }): ReactElement {
  return <p className="empty-state">{children}</p>;
}
