import { afterEach, describe, expect, it } from 'vitest';
import { createGraphQLClient } from '../../../runtime/shared/graphql.ts';
import { sendJson, startTestServer, type TestServer } from '../../helpers/http-server.ts';

const QUERY = 'query Item($id: ID!) { item(id: $id) { title } }';
let server: TestServer | null = null;

afterEach(async () => {
  await server?.close();
  server = null;
});

/**
 * Identical queries in flight share one request (runtime/shared/graphql.ts), but only under the same
 * token: an anonymous caller must never be handed the answer the editor's token got (drafts, say).
 */
describe('de-duplication of queries in flight', () => {
  it("never hands one caller the answer another caller's token got", async () => {
    // The backend answers slowly, so that every request below is in flight at once.
    server = await startTestServer((req, res) => {
      const who = req.headers.authorization ?? 'anonymous';
      setTimeout(() => sendJson(res, 200, { data: { item: { title: `as seen by ${who}` } } }), 80);
    });
    let token: string | null = 'editor-token';
    const client = createGraphQLClient({ endpoint: `${server.url}/graphql`, getToken: () => token });
    const editor = client.request(QUERY, { id: '1' });
    const editorAgain = client.request(QUERY, { id: '1' });
    token = null;
    const anonymous = client.request(QUERY, { id: '1' });
    token = 'other-editor';
    const other = client.request(QUERY, { id: '1' });
    expect(await Promise.all([editor, editorAgain, anonymous, other])).toEqual([
      { item: { title: 'as seen by Bearer editor-token' } },
      { item: { title: 'as seen by Bearer editor-token' } },
      { item: { title: 'as seen by anonymous' } },
      { item: { title: 'as seen by Bearer other-editor' } },
    ]);
    // One request per token: the two identical editor queries still shared theirs.
    expect(server.requests.map((r) => r.headers.authorization ?? null)).toEqual(['Bearer editor-token', null, 'Bearer other-editor']);
  });
});
