import { isObjectType, type GraphQLSchema } from 'graphql';
import type { RouteDefinition } from '../../../runtime/routes.ts';
import type { GraphQLClientHandle } from '../../../runtime/shared/graphql.ts';
import type { ChangeFeedDefinition, RouteDataDefinition } from '../../../runtime/shared/route-data.ts';
import { readChangeFeed } from '../../content/change-feed.ts';
import { plural } from '../../terminal/format.ts';
import type { Logger } from '../../terminal/logger.ts';
import { planRoutes, type RoutePlan } from './changed-routes.ts';
import type { SavedBuild } from './incremental.ts';

/** Where the build stands in the backend's change feed, and what it need not ask for. */
export interface FeedPlan {
  /** The feed's cursor before any page was asked for: the next build asks for the changes since. */
  cursor: string;
  /** The backend and the drafts option the cursor belongs to (FeedState.source). */
  source: string;
  /** Routes to ask for and pages to keep; null: every route is asked for (no previous build with a cursor, or the cursor expired). */
  routes: RoutePlan | null;
  /** What each route read in the previous build. */
  routeTypes: Readonly<Record<string, readonly string[]>>;
}

/**
 * Asks the site's change feed (site/routes.build.ts `changeFeed`) where it stands, and since the
 * previous build's cursor, what changed. Null without a feed, for a shard (it asks for its own share),
 * or when the feed cannot be read: the build then asks for every page and compares.
 */
export async function feedPlan(input: {
  feed: ChangeFeedDefinition | undefined;
  shard: boolean;
  source: string;
  client: GraphQLClientHandle;
  saved: SavedBuild;
  routes: readonly Pick<RouteDefinition, 'id'>[];
  routeData: Readonly<Record<string, Pick<RouteDataDefinition, 'query'>>>;
  schema: (() => Promise<GraphQLSchema>) | null;
  logger: Logger;
}): Promise<FeedPlan | null> {
  const { feed, saved, source, logger } = input;
  if (!feed || input.shard || !input.schema) return null;
  // A cursor from another backend (or for another view of it: drafts or not) says nothing about this one.
  const previous = saved.state?.feed?.source === source ? saved.state.feed : null;
  const answer = await readChangeFeed(input.client, feed, previous?.cursor ?? null, (message) => logger.warn('changes', message));
  if (!answer) return null;
  const fresh = { cursor: answer.cursor, source, routes: null, routeTypes: {} };
  if (!previous || !saved.state) return fresh;
  if (answer.expired) {
    logger.info('changes', "the backend's change feed no longer reaches back to the previous build: every page is asked for and compared");
    return fresh;
  }
  // A change to a type the schema does not know (a feed that names types its own way), or to an interface or
  // union rather than the object type the routes select, could reach any route.
  // (Parsed only then: with no change, nothing needs it.)
  const schema = answer.changes.length > 0 ? await input.schema() : null;
  const unknown = schema && answer.changes.find((c) => typeof c.type !== 'string' || !isObjectType(schema.getType(c.type)));
  if (unknown) {
    logger.warn(
      'changes',
      `the change feed names the type ${JSON.stringify(unknown.type)}, which is not an object type of site/schema.graphql: every page is asked for and compared (the feed must name the GraphQL types the site's queries select)`,
    );
    return fresh;
  }
  const routes = planRoutes(
    input.routes,
    saved.state,
    previous.routeTypes,
    answer.changes,
    schema && feed.itemIds ? { schema, routeData: input.routeData } : undefined,
  );
  const types = [...new Set(answer.changes.map((c) => c.type))].sort();
  logger.info(
    'changes',
    `${plural(answer.changes.length, 'change')} since the previous build${types.length ? ` (${types.join(', ')})` : ''}: ${routes.crawl.size} of ${plural(input.routes.length, 'route')} asked for, ${plural(routes.kept.length, 'page')} kept`,
  );
  return { cursor: answer.cursor, source, routes, routeTypes: previous.routeTypes };
}
