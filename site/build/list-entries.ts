import type { RouteDataContext, RouteEntry } from '../../runtime/shared/route-data.ts';
import { CARD_BATCH_SIZE, type ConnectionPage, type PagedList } from '../queries/document.ts';
import { entry } from './entry.ts';
import { archiveLayout, isCount, newerArchivePages } from '../data/paging.ts';
import { connectionBatches } from './paginate.ts';

/**
 * Entries of the `…/page/:page` routes: pages 2… of a list whose page 1 is the list's own route. The build
 * walks the list query itself with `first` set to the page size, so each response is exactly one page, in
 * the shape the list query returns, and the page's cursor never has to appear in a URL.
 */

export interface ListSource<TResult> {
  /** The list route's own query, with `$first` and `$after` variables. */
  document: string;
  select: (result: TResult) => ConnectionPage<unknown>;
  pageSize: number;
  /**
   * The same connection, in the same order, with its nodes' ids and `totalCount` only; with it, each page
   * has a key (the ids it shows, the collection's size, whether more follow: all its data takes from
   * beyond the items it holds), and an update in place walks the keys and asks only for the batches that
   * hold a page it cannot keep (`ctx.unchanged`). The list query's result must then be that connection
   * alone, so nothing else in a page's data can change unseen.
   */
  keys?: { document: string; select: (result: never) => PagedList<{ id: string }> };
}

/** A list source's `keys` from its keys query (listKeysQuery) and the connection's field. */
export function keysFrom(document: string, field: string): NonNullable<ListSource<never>['keys']> {
  return { document, select: (result: Record<string, PagedList<{ id: string }>>) => result[field]! };
}

/** Pages 2… of a list. */
export function laterPages<TResult>(source: ListSource<TResult>): (ctx: RouteDataContext) => AsyncGenerator<RouteEntry> {
  return async function* (ctx) {
    if (source.keys && ctx.unchanged) {
      yield* keptLaterPages(ctx, source, source.keys);
      return;
    }
    for await (const page of listPages(ctx, source, {})) yield pageEntry({ page: String(page.number) }, page);
  };
}

/** Pages 2… of each category's list; `categories` lists the category slugs. */
export function laterCategoryPages<TResult>(
  source: ListSource<TResult>,
  categories: (ctx: RouteDataContext) => Promise<readonly string[]>,
): (ctx: RouteDataContext) => AsyncGenerator<RouteEntry> {
  return async function* (ctx) {
    for (const category of await categories(ctx)) {
      for await (const page of listPages(ctx, source, { category })) yield pageEntry({ category, page: String(page.number) }, page);
    }
  };
}

/**
 * The archive pages of a list numbered from its oldest end (site/data/paging.ts, archiveLayout): page 1
 * holds the oldest items, every page is full, and the list's own route shows the newest items the pages do
 * not. Each page's data is its items and how many pages are newer, never the collection's size, so an item
 * added at the newest end leaves every page's key as it was, and an update in place asks for no page.
 *
 * The list's keys are walked first (ids only): pages are placed by what the list lists to the build (a
 * draft the build drops, cli/content/drafts.ts, is not counted), and every page handed on holds the very
 * items the keys walk found at its place. An update in place asks only for the batches that hold the
 * pages it cannot keep; a full walk compares each page with the keys walk before it hands it on.
 */
export function archivePages<TResult>(source: ArchiveSource<TResult>): (ctx: RouteDataContext) => AsyncGenerator<RouteEntry> {
  return async function* (ctx) {
    for (let attempt = 1; ; attempt++) {
      const walked = await walkKeys(ctx, source);
      if (ctx.unchanged) {
        const kept = await keptArchivePages(ctx, source, walked);
        if (kept) {
          yield* kept;
          return;
        }
      }
      // An item added or deleted at the newest end between the two walks (the usual edit) shows on the first
      // page compared, before any page is handed on: the walks are made again (twice at most), as a build
      // started a moment later would. A change deeper in the list shows later, once newer pages were handed
      // on: the build then fails on it and says so (site live tries the update again).
      const pages = wholeArchive(ctx, source, walked);
      try {
        const first = await pages.next().catch((error: unknown) => {
          if (error instanceof ListChanged && attempt < ARCHIVE_ATTEMPTS) return null;
          throw error;
        });
        if (first === null) continue;
        if (!first.done) {
          yield first.value;
          yield* pages;
        }
        return;
      } finally {
        // Stopped early (the crawl closes its lists when the build fails elsewhere): the walk's request
        // fetched ahead is awaited, not left to fail unheard.
        await pages.return(undefined);
      }
    }
  };
}

/** A list whose archive pages are numbered from its oldest end: it has keys, which place the pages. */
export type ArchiveSource<TResult> = ListSource<TResult> & { keys: NonNullable<ListSource<TResult>['keys']> };

// --- internal ---

/**
 * Pages 2… of a list, asked for in bulk: each request brings many pages' worth of items, cut into
 * pages of `pageSize` in the shape one page's query returns (the page's nodes, the collection's
 * totalCount, and whether more follow), so 10,000 items cost about 20 requests rather than 800.
 */
async function* listPages<TResult>(
  ctx: RouteDataContext,
  source: ListSource<TResult>,
  variables: Record<string, unknown>,
): AsyncGenerator<ListPageOf<TResult>> {
  let before = 0;
  for await (const result of connectionBatches(ctx, {
    document: source.document,
    select: source.select,
    variables,
    batchSize: perRequestOf(source),
  })) {
    yield* cutIntoPages(source, result, before);
    before += pagesIn(source.select(result), source.pageSize);
  }
}

/**
 * An update in place of a keyed list: the keys are walked (ids only), and a batch of the list query is
 * asked for only when a page it holds cannot be kept; the pages that can come as unchanged, unasked.
 * Nothing is handed on before every batch asked for is known to list the very items the keys walk
 * listed, in the same order (a backend whose cursors differ between the two queries, a `first` it caps,
 * an edit between the walks): otherwise the list is walked whole instead, as without keys, so a page
 * is never put together from two views of the list. So is a list of which many batches are to be asked.
 */
async function* keptLaterPages<TResult>(
  ctx: RouteDataContext,
  source: ListSource<TResult>,
  keys: NonNullable<ListSource<TResult>['keys']>,
): AsyncGenerator<RouteEntry> {
  const perRequest = perRequestOf(source);
  const batches: {
    after: string | null;
    ids: string[];
    pages: { params: { page: string }; key: string; kept: boolean }[];
    asked?: Map<string, ListPageOf<TResult>>;
  }[] = [];
  let before = 0;
  // The cursor each batch starts after: the keys' batches and the list's are the same size, so their cursors should match.
  let after: string | null = null;
  for await (const result of connectionBatches(ctx, { document: keys.document, select: keys.select, batchSize: perRequest })) {
    const connection = keys.select(result);
    const pages = [...slices(connection, source.pageSize, before)].map(({ number, nodes, more }) => {
      const params = { page: String(number) };
      const key = listKey(nodes, connection.totalCount, more);
      return { params, key, kept: ctx.unchanged!(params, key) };
    });
    batches.push({ after, ids: connection.nodes.map((node) => node.id), pages });
    before += pagesIn(connection, source.pageSize);
    after = connection.pageInfo.endCursor;
  }
  const asking = batches.filter((batch) => batch.pages.some((page) => !page.kept));
  let whole = asking.length > MAX_BATCHES_ASKED;
  before = 0;
  for (const batch of batches) {
    if (!whole && asking.includes(batch)) {
      const full = await ctx.request<TResult>(source.document, { first: perRequest, after: batch.after });
      whole = !listsIds(source, full, batch.ids);
      batch.asked = new Map([...cutIntoPages(source, full, before)].map((page) => [String(page.number), page]));
    }
    before += Math.ceil(batch.ids.length / source.pageSize);
  }
  if (whole) {
    for await (const page of listPages(ctx, source, {})) yield pageEntry({ page: String(page.number) }, page);
    return;
  }
  for (const { pages, asked } of batches) {
    for (const page of pages)
      yield page.kept ? { params: page.params, key: page.key, unchanged: true } : pageEntry(page.params, asked!.get(page.params.page)!);
  }
}

/**
 * Batches of a keyed list an update in place asks for one by one; past this (an added or deleted item
 * shifts every page after it), the list is walked whole, which costs no more and needs no cursor
 * handed from the keys' walk to the list's.
 */
const MAX_BATCHES_ASKED = 4;

/** One later page of a list, in the shape its query returns, with its key when the list has keys. */
interface ListPageOf<TResult> {
  number: number;
  result: TResult;
  key?: string;
}

function pageEntry<TResult>(params: Record<string, string>, page: ListPageOf<TResult>): RouteEntry {
  return { ...entry<TResult>(params, page.result), ...(page.key !== undefined && { key: page.key }) };
}

/** Pages asked for per request: a whole number of pages, about CARD_BATCH_SIZE items. */
function perRequestOf(source: Pick<ListSource<never>, 'pageSize'>): number {
  return Math.max(source.pageSize, Math.floor(CARD_BATCH_SIZE / source.pageSize) * source.pageSize);
}

/** How many pages one response of the list holds. */
function pagesIn(connection: ConnectionPage<unknown>, pageSize: number): number {
  return Math.ceil(connection.nodes.length / pageSize);
}

/**
 * The pages of one response of a list, numbered on from `before` (the pages of earlier responses): each
 * page's nodes and whether more follow. Page 1 is the list's own route, so it is left out.
 */
function* slices<TNode>(
  connection: ConnectionPage<TNode>,
  pageSize: number,
  before: number,
): Generator<{ number: number; nodes: TNode[]; more: boolean }> {
  for (let start = 0, number = before + 1; start < connection.nodes.length; start += pageSize, number++) {
    if (number === 1) continue;
    yield {
      number,
      nodes: connection.nodes.slice(start, start + pageSize),
      more: start + pageSize < connection.nodes.length || connection.pageInfo.hasNextPage,
    };
  }
}

/**
 * One response of the list query cut into pages (slices), in the shape one page's query returns (the
 * page's nodes, the collection's totalCount, and whether more follow). With keys, each page has its key.
 */
function* cutIntoPages<TResult>(source: ListSource<TResult>, result: TResult, before: number): Generator<ListPageOf<TResult>> {
  const connection = source.select(result);
  let field: string | undefined;
  for (const { number, nodes, more } of slices(connection, source.pageSize, before)) {
    field ??= connectionField(source, result);
    const page = { ...connection, nodes, pageInfo: { hasNextPage: more, endCursor: null } };
    const key = source.keys && listKey(nodes as { id: string }[], (connection as PagedList<unknown>).totalCount, more);
    yield { number, result: { ...(result as object), [field]: page } as TResult, ...(key !== undefined && { key }) };
  }
}

/** Whether a response of the list query lists exactly `ids`, in that order: the items the keys walk found at its place. */
function listsIds<TResult>(source: ListSource<TResult>, result: TResult, ids: readonly string[]): boolean {
  return sameIds(source.select(result).nodes as { id: string }[], ids);
}

function sameIds(nodes: readonly { id: string }[], ids: readonly string[]): boolean {
  return nodes.length === ids.length && nodes.every((node, i) => node.id === ids[i]);
}

/** A list page's key: the items it shows, in order, the collection's size and whether more pages follow. */
function listKey(nodes: readonly { id: string }[], totalCount: number, more: boolean): string {
  return `${nodes.map((node) => node.id).join(' ')}|${totalCount}|${more ? 'more' : 'last'}`;
}

/** One archive page: its number, its items (newest first) and how many archive pages are newer. */
interface ArchiveSlice<TNode> {
  number: number;
  nodes: TNode[];
  newer: number;
}

/** A keys walk of an archive's list: its ids in the list's order, the cursor before each batch, and where the pages go. */
interface WalkedKeys {
  ids: string[];
  cursors: (string | null)[];
  /** How many archive pages there are; page k starts at `ids.length - k × pageSize`. */
  pages: number;
}

/** How many times an archive is walked when the list changes between the keys walk and the full one. */
const ARCHIVE_ATTEMPTS = 3;

/** The list changed between the keys walk and the full walk: the pages cannot be placed. */
class ListChanged extends Error {}

/**
 * Walks the list's keys. The pages are as many as the list's totalCount gives (archiveLayout, as the list's
 * own route counts them, so its link to the newest page leads to one); a list that lists too few items to
 * fill them fails (a backend that counts drafts it lists, which the build drops: up to one page's worth
 * less one, the pages are filled and the drafts' places show articles on both /news and the newest page).
 */
async function walkKeys<TResult>(ctx: RouteDataContext, source: ArchiveSource<TResult>): Promise<WalkedKeys> {
  const ids: string[] = [];
  const cursors: (string | null)[] = [];
  let total = 0;
  let after: string | null = null;
  for await (const result of connectionBatches(ctx, {
    document: source.keys.document,
    select: source.keys.select,
    batchSize: perRequestOf(source),
  })) {
    const connection = source.keys.select(result);
    if (cursors.length === 0) total = connection.totalCount;
    cursors.push(after);
    ids.push(...connection.nodes.map((node) => node.id));
    after = connection.pageInfo.endCursor;
  }
  const { pages, newest } = archiveLayout(total, source.pageSize);
  // /news counts the archive's pages by totalCount and shows the `newest` items before them: the walk must
  // fill those pages, and leave no more than that before them.
  const what = `The list walked for its archive pages (${source.document.slice(0, 60).trim()}…) counts ${String(total)} items (totalCount) but lists ${ids.length} to the build`;
  if (!isCount(total))
    throw new Error(`${what}: its totalCount is not a count (an integer from 0 to 2^31 − 1). Fix the backend's totalCount for this list.`);
  if (pages * source.pageSize > ids.length)
    throw new Error(
      `${what}, too few for the ${pages} archive pages the count gives: a backend that counts drafts it lists (the build drops them) or counts otherwise than it lists. Make it count what it lists with the published-only header (x-content-perspective: published).`,
    );
  if (ids.length - pages * source.pageSize > newest)
    throw new Error(
      `${what}, more than the ${pages} archive pages the count gives and /news hold: articles would be on no page. Make the backend's totalCount count every item it lists.`,
    );
  return { ids, cursors, pages };
}

/** Where archive page `number` starts in the list (newest first). */
function pageStart(walked: WalkedKeys, number: number, pageSize: number): number {
  return walked.ids.length - number * pageSize;
}

/**
 * The archive pages from a walk of the whole list, as its responses come: the items before the newest page
 * are passed over, and each full page is handed on as soon as its last item has come, once its items are
 * the ones the keys walk found there (ListChanged otherwise).
 */
async function* wholeArchive<TResult>(
  ctx: RouteDataContext,
  source: ArchiveSource<TResult>,
  walked: WalkedKeys,
): AsyncGenerator<RouteEntry> {
  const skip = pageStart(walked, walked.pages, source.pageSize);
  let field: string | undefined;
  let seen = 0;
  let pending: { id: string }[] = [];
  let number = walked.pages;
  for await (const result of connectionBatches(ctx, {
    document: source.document,
    select: source.select,
    batchSize: perRequestOf(source),
  })) {
    field ??= connectionField(source, result);
    for (const node of source.select(result).nodes as { id: string }[]) {
      if (seen++ < skip || number < 1) continue;
      pending.push(node);
      if (pending.length < source.pageSize) continue;
      const start = pageStart(walked, number, source.pageSize);
      if (!sameIds(pending, walked.ids.slice(start, start + source.pageSize))) throw listChanged(source);
      yield archiveEntry(field, { number, nodes: pending, newer: newerArchivePages(number, walked.pages) });
      pending = [];
      number--;
    }
  }
  if (seen !== walked.ids.length || number > 0) throw listChanged(source);
}

function listChanged(source: { document: string }): ListChanged {
  return new ListChanged(
    `The list walked for its archive pages (${source.document.slice(0, 60).trim()}…) changed while the build walked it (an item added, moved or deleted): build again once the edits have settled.`,
  );
}

/**
 * An update in place of an archive: each page's key is made from the keys walk, and only the pages
 * `ctx.unchanged` does not keep are asked for, a batch of the list query each (a page can straddle two of
 * the keys' batches, so each asks for one page more than a batch). Undefined, for a walk of the whole list
 * instead, when more than MAX_BATCHES_ASKED batches would be asked for, a batch asked for fails (a backend
 * whose cap on `first` is a batch), or an answer does not list the very items the keys listed at those
 * places (see keptLaterPages).
 */
async function keptArchivePages<TResult>(
  ctx: RouteDataContext,
  source: ArchiveSource<TResult>,
  walked: WalkedKeys,
): Promise<RouteEntry[] | undefined> {
  const perRequest = perRequestOf(source);
  const pages = Array.from({ length: walked.pages }, (_, i) => {
    const number = walked.pages - i;
    const start = pageStart(walked, number, source.pageSize);
    const params = { page: String(number) };
    const key = archiveKey(walked.ids.slice(start, start + source.pageSize), newerArchivePages(number, walked.pages));
    return { params, key, start, kept: ctx.unchanged!(params, key) };
  });
  const batches = [...new Set(pages.filter((page) => !page.kept).map((page) => Math.floor(page.start / perRequest)))];
  if (batches.length > MAX_BATCHES_ASKED) return undefined;
  const asked = new Map<number, { result: TResult; field: string }>();
  for (const batch of batches) {
    // A backend that refuses one page more than a batch (its own cap on `first`) is walked whole instead, in batches it takes.
    const result = await ctx
      .request<TResult>(source.document, { first: perRequest + source.pageSize, after: walked.cursors[batch] ?? null })
      .catch(() => null);
    if (result === null) return undefined;
    if (!listsIds(source, result, walked.ids.slice(batch * perRequest, batch * perRequest + perRequest + source.pageSize)))
      return undefined;
    asked.set(batch, { result, field: connectionField(source, result) });
  }
  return pages.map(({ params, key, start, kept }) => {
    if (kept) return { params, key, unchanged: true };
    const batch = Math.floor(start / perRequest);
    const { result, field } = asked.get(batch)!;
    const from = start - batch * perRequest;
    const nodes = source.select(result).nodes.slice(from, from + source.pageSize);
    const number = Number(params.page);
    return archiveEntry(field, { number, nodes, newer: newerArchivePages(number, walked.pages) });
  });
}

/** An archive page's entry: its data in the shape NewsArchiveResult describes, and its key. */
function archiveEntry(field: string, slice: ArchiveSlice<unknown>): RouteEntry {
  const data = {
    [field]: { nodes: slice.nodes, pageInfo: { hasNextPage: slice.number > 1, endCursor: null } },
    archive: { newer: slice.newer },
  };
  const key = archiveKey(
    (slice.nodes as { id: string }[]).map((node) => node.id),
    slice.newer,
  );
  return { ...entry({ page: String(slice.number) }, data), key };
}

/** An archive page's key: the items it shows, in order, and how many pages are newer (all its links depend on). */
function archiveKey(ids: readonly string[], newer: number): string {
  return `${ids.join(' ')}|newer ${newer}`;
}

/** The field of a list query's result that holds the connection: the one archive and list pages replace. */
function connectionField<TResult>(source: ListSource<TResult>, result: TResult): string {
  const connection = source.select(result);
  const field = Object.keys(result as object).find((k) => (result as Record<string, unknown>)[k] === connection);
  // A result that nests the list deeper than the top level cannot be cut into pages here: say so rather than guess.
  if (!field)
    throw new Error(
      `The list query's connection must be a top-level field of its result to be paged in bulk (${source.document.slice(0, 60)}…).`,
    );
  return field;
}
