/**
 * A minimal GraphQL-over-HTTP client for the backend tests: real fetch against a real server, so the
 * tests see exactly what the site build and the browser see.
 */
import type { ContentServer } from '../../backend/server.ts';

/** A GraphQL response body. */
export interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

/** Posts one operation; `token` adds `Authorization: Bearer <token>`. */
export async function gql<T = Record<string, unknown>>(
  server: ContentServer,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<GraphQLResponse<T>> {
  const response = await fetch(server.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as GraphQLResponse<T>;
}

/** Posts an operation that must succeed and returns its data. */
export async function gqlData<T = Record<string, unknown>>(
  server: ContentServer,
  query: string,
  variables: Record<string, unknown> = {},
  token?: string,
): Promise<T> {
  const result = await gql<T>(server, query, variables, token);
  if (result.errors?.length || !result.data) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
  return result.data;
}

/** Logs in with the given credentials and returns the token. */
export async function loginToken(server: ContentServer, email: string, password: string): Promise<string> {
  const data = await gqlData<{ login: { token: string } }>(
    server,
    'mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { token viewer { name } } }',
    { email, password },
  );
  return data.login.token;
}

interface Page<N> {
  nodes: N[];
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/**
 * Walks a connection field to the end with cursors, `first` at a time, and returns all nodes plus the
 * totalCount reported by the first page.
 */
export async function fetchAll<N>(
  server: ContentServer,
  field: string,
  selection: string,
  options: { first?: number; token?: string; args?: string } = {},
): Promise<{ nodes: N[]; totalCount: number; pages: number }> {
  const query = `query Walk($after: String) { list: ${field}(first: ${options.first ?? 100}, after: $after${options.args ? `, ${options.args}` : ''}) {
    totalCount pageInfo { hasNextPage endCursor } nodes { ${selection} } } }`;
  const nodes: N[] = [];
  let after: string | null = null;
  let totalCount = -1;
  let pages = 0;
  for (;;) {
    const data: { list: Page<N> } = await gqlData<{ list: Page<N> }>(server, query, { after }, options.token);
    pages += 1;
    if (totalCount < 0) totalCount = data.list.totalCount;
    nodes.push(...data.list.nodes);
    if (!data.list.pageInfo.hasNextPage) break;
    after = data.list.pageInfo.endCursor;
  }
  return { nodes, totalCount, pages };
}
