/**
 * Live content edits through the embedded backend's mutations (site/schema.graphql createContent,
 * updateContent, deleteContent), for tests and benches: each sends the editor's token, resolves with the
 * change the backend logged, and throws with the backend's message when it refuses the edit.
 *
 * @example
 * const token = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
 * await updateContent(server, token, 'NewsItem', 'news-3', { title: 'New title' });
 */

/** The change a mutation logged (site/schema.graphql ContentChange). */
export interface EditedItem {
  type: string;
  id: string;
  /** Null for Home and Site. */
  slug: string | null;
  /** The slug before this change gave the item a new one, else null. */
  previousSlug: string | null;
  kind: 'UPSERT' | 'DELETE';
}

/** Anything with the backend's GraphQL URL (a ContentServer, or `{ url }`). */
type Backend = { url: string };

export function updateContent(
  backend: Backend,
  token: string,
  type: string,
  id: string,
  fields: Record<string, unknown>,
): Promise<EditedItem> {
  return mutate(
    backend,
    token,
    'updateContent',
    'mutation Update($type: String!, $id: ID!, $fields: String!) { updateContent(type: $type, id: $id, fields: $fields) { type id slug previousSlug kind } }',
    { type, id, fields: JSON.stringify(fields) },
  );
}

export function createContent(backend: Backend, token: string, type: string, fields: Record<string, unknown>): Promise<EditedItem> {
  return mutate(
    backend,
    token,
    'createContent',
    'mutation Create($type: String!, $fields: String!) { createContent(type: $type, fields: $fields) { type id slug previousSlug kind } }',
    { type, fields: JSON.stringify(fields) },
  );
}

export function deleteContent(backend: Backend, token: string, type: string, id: string): Promise<EditedItem> {
  return mutate(
    backend,
    token,
    'deleteContent',
    'mutation Delete($type: String!, $id: ID!) { deleteContent(type: $type, id: $id) { type id slug previousSlug kind } }',
    { type, id },
  );
}

async function mutate(
  backend: Backend,
  token: string,
  field: string,
  query: string,
  variables: Record<string, unknown>,
): Promise<EditedItem> {
  const response = await fetch(backend.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data?: Record<string, EditedItem> | null; errors?: { message: string }[] };
  if (body.errors?.length || !body.data)
    throw new Error(`${field} failed: ${body.errors?.map((e) => e.message).join('; ') ?? response.status}`);
  return body.data[field]!;
}
