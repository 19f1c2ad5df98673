import type { RouteDefinition } from '../../../runtime/routes.ts';
import type { ContentChange, RouteDataDefinition } from '../../../runtime/shared/route-data.ts';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { dependsUnchanged } from '../../content/page-depends.ts';
import { typesNestedInItems, typesRead, typesWithoutIds } from '../../content/types-read.ts';
import type { BuildState } from './build-state.ts';

/**
 * With a change feed, an update in place asks the backend only for the routes a change can reach. A
 * route's pages are made from its documents' answers alone (its entries' list queries and its own
 * query), and an answer can only differ when an item of a type the document reads was added, edited or
 * deleted; so a route none of whose documents read a changed type gives the same pages, with the same
 * data, as last time, and its pages are read back from the previous output (build/incremental/kept-pages.ts).
 * Site-wide data is asked every build: it is part of the build id.
 */
export interface RoutePlan {
  /** Routes asked of the backend. */
  crawl: ReadonlySet<string>;
  /**
   * Pages of the other routes, kept from the previous output, with the hash of what the previous build
   * wrote; the crawl adds the pages of asked routes that their entries give as unchanged.
   */
  kept: { path: string; routeId: string; hash: string }[];
  /** For an asked route, whether its previous page at a path, with an entry's key, may be kept unasked (`ctx.unchanged`); undefined: every page is asked. */
  unchanged: (routeId: string) => ((path: string, key: string) => boolean) | undefined;
}

/**
 * Which routes the changes reach, given what each route read last time; a route not seen then is always
 * asked. Within an asked route, a page may be kept unasked (item-level dependencies) when the previous
 * build remembered its entry's key and the ids of the items its data held: unless the key is new or an
 * item it held changed, its data is what it was. That holds only when the feed's ids are the items' ids
 * as the queries select them (ChangeFeedDefinition.itemIds), when every changed type's items carry their
 * id wherever the route's query selects them (typesWithoutIds: an item without its id in the data could
 * be one that changed), and when no changed type is selected inside another item (typesNestedInItems: a
 * relation can gain a changed item while the item that has it stays as it was).
 */
export function planRoutes(
  routes: readonly Pick<RouteDefinition, 'id'>[],
  previous: Pick<BuildState, 'pages'>,
  routeTypes: Readonly<Record<string, readonly string[]>>,
  changes: readonly ContentChange[],
  items?: { schema: GraphQLSchema; routeData: Readonly<Record<string, Pick<RouteDataDefinition, 'query'>>> },
): RoutePlan {
  const changed = new Set(changes.map((c) => c.type));
  const crawl = new Set(routes.filter((r) => !routeTypes[r.id] || routeTypes[r.id]!.some((type) => changed.has(type))).map((r) => r.id));
  const kept: RoutePlan['kept'] = [];
  for (const [path, page] of previous.pages)
    if (!crawl.has(page.inspected.route)) kept.push({ path, routeId: page.inspected.route, hash: page.hash });
  const changedIds = new Set(changes.map((c) => String(c.id)));
  // Changes to anything but an object type (an interface, a type the schema lacks) reach every page of an asked route.
  const byItem = items && [...changed].every((type) => isObjectType(items.schema.getType(type)));
  const unchanged = (routeId: string): ((path: string, key: string) => boolean) | undefined => {
    const query = items?.routeData[routeId]?.query;
    if (!byItem || !query || !crawl.has(routeId)) return undefined;
    if ([...typesWithoutIds(items.schema, query), ...typesNestedInItems(items.schema, query)].some((type) => changed.has(type)))
      return undefined;
    return (path, key) => {
      const page = previous.pages.get(path);
      return page?.inspected.route === routeId && dependsUnchanged(page.depends, key, changedIds);
    };
  };
  return { crawl, kept, unchanged };
}

/**
 * What each route read in this build: its own query's types, and those of every document its entries
 * sent (`documents`, recorded by the crawl), with what it read before (a build that kept some of its
 * pages unasked may not have sent every document); a route not crawled keeps what it read last time.
 */
export function routeTypesOf(
  schema: GraphQLSchema,
  routes: readonly Pick<RouteDefinition, 'id'>[],
  routeData: Readonly<Record<string, Pick<RouteDataDefinition, 'query'>>>,
  documents: ReadonlyMap<string, ReadonlySet<string>>,
  crawled: (routeId: string) => boolean,
  before: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const cache = new Map<string, readonly string[]>();
  const read = (document: string): readonly string[] =>
    cache.get(document) ?? cache.set(document, typesRead(schema, document)).get(document)!;
  const result: Record<string, string[]> = {};
  for (const { id } of routes) {
    if (!crawled(id) && before[id]) {
      result[id] = [...before[id]!];
      continue;
    }
    // An asked route whose entries kept pages unasked may not have sent every document it sends in full:
    // what it read before still counts.
    const types = new Set<string>(before[id] ?? []);
    const own = routeData[id]?.query;
    for (const document of [...(own ? [own] : []), ...(documents.get(id) ?? [])]) for (const type of read(document)) types.add(type);
    result[id] = [...types].sort();
  }
  return result;
}
