import type { RouteDataContext, RouteEntry, RouteParamsRecord } from '../../runtime/shared/route-data.ts';
import { entry } from './entry.ts';
import { composeItemsDocument, type ItemField } from '../queries/document.ts';
import { paginate, type PaginateOptions } from './paginate.ts';

/**
 * The items of an item route (one page per item, such as /news/:slug), in full, for the pages the build
 * wants, in the list's order. One machine wants every page: the route's full list query is walked, each
 * answer bringing many items in full, so there is no request per item. A shard wants a share
 * (`ctx.wants`): a light list of every item (what names its page) is walked instead, and only the wanted
 * items are asked for in full, many per request by their params, so a shard of n fetches about 1/n of
 * the items' data. Either way an item is exactly what the route's own query returns for it.
 */

export interface ItemSource<TItem extends TRef, TRef> {
  /** Every item in full, page by page: the source when every page is wanted. */
  full: PaginateOptions<never, TItem>;
  /** Every item with what names its page (and what pages need of the whole collection): the source of a share. */
  refs: PaginateOptions<never, TRef>;
  /** The params of an item's page; they are also the arguments of `byParams`. */
  params: (item: TRef) => RouteParamsRecord;
  /** The items of a share in full, by their params. */
  byParams: ItemField;
}

/**
 * A wanted item: its page's params, the item as listed, its page's key (RouteEntry.key), and the item in
 * full (null when the backend no longer has it); or, in an update in place, an item whose page the build
 * keeps as it is (`ctx.unchanged`), not asked for.
 */
export type WantedItem<TItem, TRef> = { params: RouteParamsRecord; listed: TRef; key: string } & (
  | { unchanged: true }
  | { unchanged: false; item: TItem | null }
);

/**
 * The collection as listed: items in full when every page is wanted and asked for, else each item's
 * `refs` fields only (a shard's share, or an update in place that may keep most pages unasked).
 */
export function listItems<TItem extends TRef, TRef>(ctx: RouteDataContext, source: ItemSource<TItem, TRef>): AsyncGenerator<TRef> {
  return ctx.wants || ctx.unchanged ? paginate(ctx, source.refs) : paginate(ctx, source.full);
}

/** The entry of a wanted item's page, with its key: without data when the build keeps the page as it is. */
export function itemEntry<TData>(wanted: WantedItem<unknown, unknown>, data: (item: unknown) => TData): RouteEntry {
  if (wanted.unchanged) return { params: wanted.params, key: wanted.key, unchanged: true };
  return { ...entry<TData>(wanted.params, data(wanted.item)), key: wanted.key };
}

/**
 * The wanted ones of `listed` (from listItems), in full and in order: as listed when the list was in full,
 * else asked for in batches of `byParams.perRequest`, a few batches ahead of the caller. `keyOf` gives
 * each page's key (RouteEntry.key: what the page takes from the rest of the collection; '' by default);
 * in an update in place, an item whose page the build keeps (`ctx.unchanged`) comes at once, unasked.
 */
export async function* wantedItems<TItem extends TRef, TRef>(
  ctx: RouteDataContext,
  source: ItemSource<TItem, TRef>,
  listed: AsyncIterable<TRef> | Iterable<TRef>,
  keyOf: (item: TRef) => string = () => '',
): AsyncGenerator<WantedItem<TItem, TRef>> {
  const { wants, unchanged } = ctx;
  if (!wants && !unchanged) {
    // listItems walked the full list: what was listed is the item in full.
    for await (const item of listed)
      yield { params: source.params(item), listed: item, key: keyOf(item), unchanged: false, item: item as TItem };
    return;
  }
  const pending: Promise<WantedItem<TItem, TRef>[]>[] = [];
  let batch: { params: RouteParamsRecord; listed: TRef; key: string }[] = [];
  const send = (): void => {
    const request = fetchBatch<TItem, TRef>(ctx, source.byParams, batch);
    // Awaited in order below; until then a failure must not count as unhandled.
    request.catch(() => undefined);
    pending.push(request);
    batch = [];
  };
  try {
    for await (const item of listed) {
      const params = source.params(item);
      if (wants && !wants(params)) continue;
      const key = keyOf(item);
      if (unchanged?.(params, key)) {
        yield { params, listed: item, key, unchanged: true };
        continue;
      }
      batch.push({ params, listed: item, key });
      if (batch.length < source.byParams.perRequest) continue;
      send();
      if (pending.length > BATCHES_AHEAD) yield* await pending.shift()!;
    }
    if (batch.length > 0) send();
    while (pending.length > 0) yield* await pending.shift()!;
  } finally {
    // A walk stopped early (the build failed elsewhere) leaves no request behind to fail unheard.
    await Promise.all(pending.map((request) => request.catch(() => undefined)));
  }
}

/** listItems, then wantedItems: the items of a route whose pages need nothing of the rest of the collection (their key is ''). */
export function items<TItem extends TRef, TRef>(
  ctx: RouteDataContext,
  source: ItemSource<TItem, TRef>,
): AsyncGenerator<WantedItem<TItem, TRef>> {
  return wantedItems(ctx, source, listItems(ctx, source));
}

// --- internal ---

/** Batches asked for beyond the one being handed on: the backend answers the next while the build works. */
const BATCHES_AHEAD = 2;

const documents = new Map<ItemField, Map<number, string>>();

/** The document for `count` items, composed once per build. */
function itemsDocument(field: ItemField, count: number): string {
  let bySize = documents.get(field);
  if (!bySize) documents.set(field, (bySize = new Map()));
  let document = bySize.get(count);
  if (!document) bySize.set(count, (document = composeItemsDocument(field, count)));
  return document;
}

async function fetchBatch<TItem, TRef>(
  ctx: RouteDataContext,
  field: ItemField,
  batch: readonly { params: RouteParamsRecord; listed: TRef; key: string }[],
): Promise<WantedItem<TItem, TRef>[]> {
  const variables: Record<string, string> = {};
  batch.forEach(({ params }, i) => {
    for (const arg of field.args) {
      const value = params[arg];
      if (value === undefined)
        throw new Error(
          `${field.operation} needs the param '${arg}', which the route's params (${Object.keys(params).join(', ')}) do not have.`,
        );
      variables[`${arg}${i}`] = value;
    }
  });
  const result = await ctx.request<Record<string, TItem | null | undefined>>(itemsDocument(field, batch.length), variables);
  return batch.map(({ params, listed, key }, i) => ({ params, listed, key, unchanged: false, item: result[`item${i}`] ?? null }));
}
