import type { GraphQLClientHandle } from '../../runtime/shared/graphql.ts';

/**
 * Drafts are never published by accident (issue 16.7). With an editor's token the backend would return
 * drafts, so unless `--drafts` the build:
 * - asks for published content only, with the request header PUBLISHED_ONLY (a CMS's delivery view;
 *   the embedded backend honours it), which gives exactly the pages, lists and counts of a build
 *   without a token;
 * - and, as a safety net for a backend that ignores the header, drops every item whose `status` is
 *   `DRAFT` from each answer where it enters the build: from lists, and as an item a page shows
 *   (which then has no item, so the page fails as "no item"). The site's queries select `status`.
 * The build says how many drafts it left out.
 */

/** The header and value by which the build asks for published content only. */
export const PUBLISHED_ONLY = { 'x-content-perspective': 'published' } as const;

export interface DraftFilter {
  /** The client whose every answer has its drafts dropped. */
  readonly client: GraphQLClientHandle;
  /** Distinct drafts (by id, else by position) dropped so far. */
  left(): number;
}

/** Wraps the build's client so that no draft gets past it. */
export function withoutDrafts(client: GraphQLClientHandle): DraftFilter {
  const seen = new Set<string>();
  return {
    left: () => seen.size,
    client: {
      name: client.name,
      endpoint: client.endpoint,
      requestCount: () => client.requestCount(),
      async request<TData, TVars extends Record<string, unknown> = Record<string, unknown>>(
        document: string,
        variables?: TVars,
      ): Promise<TData> {
        return dropDrafts(await client.request<TData, TVars>(document, variables), seen);
      },
    },
  };
}

/**
 * `value` without its drafts: an array loses the items whose `status` is DRAFT, an object field holding
 * one becomes null. Copy on write: parts without drafts are the input's own objects. Adds the ids of
 * what it dropped to `seen`.
 */
export function dropDrafts<T>(value: T, seen: Set<string>): T {
  return walk(value, seen) as T;
}

// --- internal ---

function isDraft(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { status?: unknown }).status === 'DRAFT';
}

function note(draft: unknown, seen: Set<string>): void {
  const { id, slug } = draft as { id?: unknown; slug?: unknown };
  seen.add(String(id ?? slug ?? `#${seen.size}`));
}

function walk(value: unknown, seen: Set<string>): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const item = value[i] as unknown;
      if (isDraft(item)) {
        note(item, seen);
        out ??= value.slice(0, i);
        continue;
      }
      const next = walk(item, seen);
      if (next !== item) out ??= value.slice(0, i);
      out?.push(next);
    }
    return out ?? value;
  }
  if (value === null || typeof value !== 'object') return value;
  let out: Record<string, unknown> | null = null;
  for (const [key, field] of Object.entries(value)) {
    let next: unknown;
    if (isDraft(field)) {
      note(field, seen);
      next = null;
    } else next = walk(field, seen);
    if (next !== field) (out ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return out ?? value;
}
