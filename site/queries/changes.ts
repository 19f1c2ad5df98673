import type { ChangeFeedAnswer, ChangeFeedDefinition } from '../../runtime/shared/route-data.ts';

/**
 * The embedded backend's change feed (site/schema.graphql `changes`): what was added, edited or
 * deleted since a cursor. Another backend plugs in here: a CMS's sync token or an `updatedAt > X`
 * filter gives the same answer (docs/content-backend.md).
 */
export const CHANGES_QUERY = `
query Changes($since: String) {
  changes(since: $since) {
    cursor
    expired
    changes {
      type
      id
      kind
    }
  }
}`;

type ChangesResult = { changes: { cursor: string; expired: boolean; changes: { type: string; id: string; kind: 'UPSERT' | 'DELETE' }[] } };

export const changeFeed: ChangeFeedDefinition = {
  query: CHANGES_QUERY,
  // The backend's change names the item by the id its queries answer.
  itemIds: true,
  read(result): ChangeFeedAnswer {
    const { cursor, expired, changes } = (result as ChangesResult).changes;
    return { cursor, expired, changes: changes.map((c) => ({ type: c.type, id: c.id, kind: c.kind === 'DELETE' ? 'delete' : 'upsert' })) };
  },
};
