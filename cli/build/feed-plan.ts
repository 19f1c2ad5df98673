import type { RouteDefinition } from '../../runtime/routes.ts';
import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import type { ChangeFeedDefinition } from '../../runtime/shared/route-data.ts';
import { readChangeFeed } from '../content/change-feed.ts';
import { plural } from '../terminal/format.ts';
import type { Logger } from '../terminal/logger.ts';
import { planRoutes, type RoutePlan } from './changed-routes.ts';
import type { SavedBuild } from './incremental.ts';

/** Where the build stands in the backend's change feed, and what it need not ask for. */
export interface FeedPlan {
  /** The feed's cursor before any page was asked for: the next build asks for the changes since. */
  cursor: string;
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
export async function feedPlan(input: { feed: ChangeFeedDefinition | undefined; shard: boolean; client: GraphQLClientHandle; saved: SavedBuild; routes: readonly RouteDefinition[]; logger: Logger }): Promise<FeedPlan | null> {
  const { feed, saved, logger } = input;
  if (!feed || input.shard) return null;
  const previous = saved.state?.feed ?? null;
  const answer = await readChangeFeed(input.client, feed, previous?.cursor ?? null, (message) => logger.warn('changes', message));
  if (!answer) return null;
  if (!previous || !saved.state) return { cursor: answer.cursor, routes: null, routeTypes: {} };
  if (answer.expired) {
    logger.info('changes', "the backend's change feed no longer reaches back to the previous build: every page is asked for and compared");
    return { cursor: answer.cursor, routes: null, routeTypes: {} };
  }
  const routes = planRoutes(input.routes, saved.state, previous.routeTypes, answer.changes);
  const types = [...new Set(answer.changes.map((c) => c.type))].sort();
  logger.info('changes', `${plural(answer.changes.length, 'change')} since the previous build${types.length ? ` (${types.join(', ')})` : ''}: ${routes.crawl.size} of ${plural(input.routes.length, 'route')} asked for, ${plural(routes.kept.length, 'page')} kept`);
  return { cursor: answer.cursor, routes, routeTypes: previous.routeTypes };
}
