/**
 * Composition of GraphQL documents from named fragments.
 *
 * A document that spreads a fragment must contain it exactly once, and must not contain fragments it never
 * uses (the `NoUnusedFragments` rule). Listing each fragment's own dependencies and collecting them here
 * keeps every exported `*_QUERY` a complete, valid document without anyone counting fragments by hand.
 */

/** A GraphQL fragment and the fragments its selection spreads. */
export interface Fragment {
  readonly name: string;
  readonly source: string;
  readonly uses: readonly Fragment[];
}

/**
 * Items per list page. A list page embeds exactly one page of its collection; the rest are prerendered as
 * `{list}/page/{n}` (site/build/list-entries.ts), so every item is one link away without the API or JavaScript.
 */
export const LIST_PAGE_SIZE = 24;

/** News cards carry images, so the news list embeds fewer of them to keep its payload small. */
export const NEWS_PAGE_SIZE = 12;

/**
 * The people directory is the only way to reach a person (there are no person pages), so it embeds a whole
 * batch rather than a list page: a directory that silently drops people is worse than a larger payload.
 * 250 covers the largest staff the sample and scaled content have (200 at 50,000 pages, whose research
 * projects link to each member's entry: with 100, the link check found 10,504 anchors missing).
 */
export const DIRECTORY_SIZE = 250;

/** Items per request when the build pages through a whole collection to enumerate detail pages. */
export const ENTRY_BATCH_SIZE = 100;

/**
 * Items per request when the build walks a collection of small items: cards for list pages, or only what
 * names each item's page (a shard's list, site/build/items.ts). The embedded backend allows 500 a request.
 */
export const CARD_BATCH_SIZE = 480;

/** Declares a fragment; its name is read from the source so the two cannot disagree. */
export function defineFragment(source: string, uses: readonly Fragment[] = []): Fragment {
  const name = /fragment\s+(\w+)\s+on\s/.exec(source)?.[1];
  if (!name) throw new Error(`Not a GraphQL fragment definition: ${source.slice(0, 60)}`);
  return { name, source: source.trim(), uses };
}

/** An operation followed by every fragment it needs, transitively, each once. */
export function composeDocument(operation: string, uses: readonly Fragment[] = []): string {
  const byName = new Map<string, Fragment>();
  const visit = (fragment: Fragment): void => {
    const known = byName.get(fragment.name);
    if (known) {
      if (known.source !== fragment.source) throw new Error(`Two different fragments are named ${fragment.name}.`);
      return;
    }
    byName.set(fragment.name, fragment);
    fragment.uses.forEach(visit);
  };
  uses.forEach(visit);
  return [operation.trim(), ...[...byName.values()].map((f) => f.source)].join('\n\n') + '\n';
}

/**
 * An item field of the schema that takes the item's page params as its arguments (`newsItem(slug:)`,
 * `event(category:, slug:)`), with the fragment a page selects of the item: how the build asks for
 * chosen items in full, many at once (composeItemsDocument).
 */
export interface ItemField {
  /** The batch query's operation name. */
  operation: string;
  field: string;
  /** The field's arguments, each a `String!`, named as the route's params that give their values. */
  args: readonly string[];
  fragment: Fragment;
  /** Items per request: within what backends answer (the embedded one: 30 aliases, 600 fields a query). */
  perRequest: number;
}

/**
 * A query for `count` items of `item` at once: the field under the aliases `item0`, `item1`… with the
 * variables `$slug0`, `$slug1`… (per argument). Plain GraphQL aliases, so any backend of the schema
 * answers it; its result is `{ item0: Item | null, … }`.
 */
export function composeItemsDocument(item: ItemField, count: number): string {
  if (!Number.isInteger(count) || count < 1 || count > item.perRequest)
    throw new RangeError(`${item.operation} asks for 1 to ${item.perRequest} items, not ${count}.`);
  const indexes = [...Array(count).keys()];
  const variables = indexes.flatMap((i) => item.args.map((arg) => `$${arg}${i}: String!`)).join(', ');
  const fields = indexes.map(
    (i) => `  item${i}: ${item.field}(${item.args.map((arg) => `${arg}: $${arg}${i}`).join(', ')}) {\n    ...${item.fragment.name}\n  }`,
  );
  return composeDocument(`query ${item.operation}(${variables}) {\n${fields.join('\n')}\n}`, [item.fragment]);
}

/**
 * A list's keys (site/build/list-entries.ts, a list source's `keys`): the same connection as the list
 * query, in the same order and batches, with its nodes' ids (and `status`, for the draft filter) and the
 * collection's size only. An update in place walks it to learn which items each list page shows.
 */
export function listKeysQuery(operation: string, field: string): string {
  return `
query ${operation}($first: Int = ${CARD_BATCH_SIZE}, $after: String) {
  ${field}(first: $first, after: $after) {
    nodes {
      status
      id
    }
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`;
}

/** The part of a Relay-style connection that list pages embed. */
export interface ListPage<TNode> {
  nodes: TNode[];
  totalCount: number;
}

/** The part of a connection the build reads while paging through a collection. */
export interface ConnectionPage<TNode> {
  nodes: TNode[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** A list page as its query returns it: the page's items, the collection's size, and the cursor to the next page. */
export type PagedList<TNode> = ListPage<TNode> & ConnectionPage<TNode>;
