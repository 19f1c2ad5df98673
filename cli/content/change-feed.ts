import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import type { ChangeFeedAnswer, ChangeFeedDefinition } from '../../runtime/shared/route-data.ts';
import { describeCause } from '../errors/format-error.ts';

/**
 * Asks the backend's change feed what changed since `since` (null: only where it stands now). A feed
 * that cannot be read is no reason to fail the build: the answer is null, and the build asks for every
 * page and compares, as it does with a backend that has no feed; `onProblem` says why.
 */
export async function readChangeFeed(client: GraphQLClientHandle, feed: ChangeFeedDefinition, since: string | null, onProblem: (message: string) => void): Promise<ChangeFeedAnswer | null> {
  try {
    const answer = feed.read(await client.request(feed.query, { since }));
    if (typeof answer.cursor !== 'string' || !Array.isArray(answer.changes)) throw new Error('its answer has no cursor or no list of changes');
    return answer;
  } catch (error) {
    onProblem(`the backend's change feed could not be read (${describeCause(error)}); every page is asked for and compared`);
    return null;
  }
}
