/**
 * The `changes` query (site/schema.graphql): what changed since a cursor, from the edit log (editing.ts).
 * A cursor names this backend process (a restart forgets the log, so an older process's cursor is
 * answered as expired), the log position and the time it was given: the home page's upcoming events
 * depend on the clock, so an event that started since then counts as a change to that event.
 */
import { randomBytes } from 'node:crypto';
import type { EditableContent, LoggedChange } from './editing.ts';

/** The `changes` query's answer (site/schema.graphql ChangeFeed). */
export interface FeedAnswer {
  cursor: string;
  expired: boolean;
  changes: { type: string; id: string; slug: string | null; previousSlug: string | null; kind: 'UPSERT' | 'DELETE' }[];
}

export function createChangeFeed(
  content: Pick<EditableContent, 'store' | 'log'>,
  now: () => Date,
): (since: string | null, withDrafts: boolean) => FeedAnswer {
  const epoch = randomBytes(6).toString('hex');
  // No cursor this process gave is older than its start: an earlier time is forged, and would count every past event as changed.
  const started = now().getTime();
  const head = (): number => content.log.at(-1)?.seq ?? 0;
  const cursorAt = (seq: number, time: number): string => `${epoch}.${seq}.${time}`;
  // A reader without drafts gets the position of the last change it can see, so its cursor does not
  // move while editors work on drafts (which would tell it they do).
  const lastSeen = (withDrafts: boolean): number => {
    if (withDrafts) return head();
    for (let i = content.log.length - 1; i >= 0; i--)
      if (content.log[i]!.publicBefore || content.log[i]!.publicAfter) return content.log[i]!.seq;
    return Math.max(0, (content.log[0]?.seq ?? 1) - 1);
  };
  return (since, withDrafts) => {
    const time = now().getTime();
    const cursor = cursorAt(lastSeen(withDrafts), time);
    if (since === null) return { cursor, expired: false, changes: [] };
    const [sinceEpoch, seqText, timeText] = since.split('.');
    const seq = Number(seqText);
    const from = Number(timeText);
    const oldest = content.log[0]?.seq ?? head() + 1;
    if (
      sinceEpoch !== epoch ||
      !Number.isSafeInteger(seq) ||
      !Number.isSafeInteger(from) ||
      seq > head() ||
      seq < oldest - 1 ||
      from < started ||
      from > time
    )
      return { cursor, expired: true, changes: [] };
    const changes = content.log
      .filter((c) => c.seq > seq && (withDrafts || c.publicBefore || c.publicAfter))
      .map((c) => asSeenBy(c, withDrafts));
    for (const event of content.store.events.list(withDrafts)) {
      const start = Date.parse(event.startsAt);
      if (start > from && start <= time)
        changes.push({ type: 'Event', id: event.id, slug: event.slug, previousSlug: null, kind: 'UPSERT' });
    }
    return { cursor, expired: false, changes };
  };
}

// --- internal ---

/**
 * A reader without drafts sees an item made a draft as deleted, from the slug it saw, and never the slug
 * a draft had before it was published.
 */
function asSeenBy(change: LoggedChange, withDrafts: boolean): FeedAnswer['changes'][number] {
  const { type, id, slug, previousSlug, kind } = change;
  if (kind === 'UPSERT' && !withDrafts && !change.publicAfter)
    return { type, id, slug: previousSlug ?? slug, previousSlug: null, kind: 'DELETE' };
  return { type, id, slug, previousSlug: withDrafts || change.publicBefore ? previousSlug : null, kind };
}
