import { createGraphQLClient } from '../../runtime/shared/graphql.ts';
import type { ChangeFeedDefinition } from '../../runtime/shared/route-data.ts';
import { readChangeFeed } from '../content/change-feed.ts';
import { plural } from '../terminal/format.ts';

/**
 * `site dev` follows the backend's change feed (docs/content-backend.md): it asks every `intervalMs`
 * what changed since its last answer, and calls `onChange` when anything did (or when the feed
 * restarted, when anything may have). The build it starts asks the feed again for itself, and updates
 * only what the changes reach. A feed that cannot be read is said once, until it answers again.
 */
export function followContent(
  endpoint: string,
  feed: ChangeFeedDefinition,
  onChange: (what: string) => void,
  options: { intervalMs?: number; onProblem: (message: string) => void; token?: string | null },
): { close(): void } {
  // With the build's token, as the build asks the same feed: a backend may answer it to no one else.
  const client = createGraphQLClient({ endpoint, name: 'changes', retries: 0, timeoutMs: 5_000, getToken: () => options.token ?? null });
  const intervalMs = options.intervalMs ?? 250;
  let cursor: string | null = null;
  let failing = false;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  const poll = async (): Promise<void> => {
    const answer = await readChangeFeed(client, feed, cursor, (message) => {
      if (!failing)
        options.onProblem(
          message.replace(/; every page is asked for and compared$/, '; edits in the backend are not followed until it answers'),
        );
      failing = true;
    });
    if (closed) return;
    if (answer) {
      failing = false;
      if (cursor !== null && answer.expired) onChange("the backend's change feed restarted");
      else if (answer.changes.length > 0) onChange(`${plural(answer.changes.length, 'content change')} in the backend`);
      cursor = answer.cursor;
    }
    timer = setTimeout(() => void poll(), intervalMs);
  };
  void poll();
  return {
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
    },
  };
}
