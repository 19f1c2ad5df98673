import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';
import type { ChangeFeedAnswer, ChangeFeedDefinition, ContentChange } from '../../runtime/shared/route-data.ts';
import { describeCause } from '../errors/format-error.ts';

/**
 * Asks the backend's change feed what changed since `since` (null: only where it stands now). A feed
 * that cannot be read is no reason to fail the build: the answer is null, and the build asks for every
 * page and compares, as it does with a backend that has no feed; `onProblem` says why.
 */
export async function readChangeFeed(
  client: GraphQLClientHandle,
  feed: ChangeFeedDefinition,
  since: string | null,
  onProblem: (message: string) => void,
): Promise<ChangeFeedAnswer | null> {
  try {
    const answer = feed.read(await client.request(feed.query, { since }));
    const problem = answerProblem(answer);
    if (problem) throw new Error(`its answer ${problem}`);
    return answer;
  } catch (error) {
    onProblem(`the backend's change feed could not be read (${describeCause(error)}); every page is asked for and compared`);
    return null;
  }
}

// --- internal ---

/**
 * What is wrong with a feed's answer as the site's `read` gave it, or null. Whatever the build keeps
 * rests on the answer, so one that is not whole (no cursor, an expiry that is not a yes or no, a change
 * without its type, id or kind) counts as unreadable rather than as "nothing changed".
 */
function answerProblem(answer: unknown): string | null {
  const { cursor, expired, changes } = (answer ?? {}) as Partial<ChangeFeedAnswer>;
  if (typeof cursor !== 'string' || cursor === '') return 'has no cursor';
  if (typeof expired !== 'boolean') return 'does not say whether the cursor expired';
  if (!Array.isArray(changes)) return 'has no list of changes';
  const bad = changes.find(
    (c: Partial<ContentChange> | null) =>
      typeof c?.type !== 'string' ||
      c.type === '' ||
      typeof c.id !== 'string' ||
      c.id === '' ||
      (c.kind !== 'upsert' && c.kind !== 'delete'),
  );
  return bad === undefined ? null : `lists a change without a type, an id or a kind (${JSON.stringify(bad)})`;
}
