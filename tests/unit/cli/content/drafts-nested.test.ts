import { describe, expect, it } from 'vitest';
import { dropDrafts, withoutDrafts } from '../../../../cli/content/drafts.ts';
import type { GraphQLClientHandle } from '../../../../runtime/shared/graphql.ts';

/** No draft reaches a page, however deep in an answer it sits (cli/content/drafts.ts). */
describe('dropDrafts', () => {
  it('drops drafts nested inside list items, in lists and in fields, and counts each once', () => {
    const answer = {
      items: [
        {
          id: 'p1',
          status: 'PUBLISHED',
          related: [
            { id: 'd1', status: 'DRAFT' },
            { id: 'p2', status: 'PUBLISHED' },
          ],
          lead: { id: 'd2', status: 'DRAFT' },
        },
        {
          id: 'p3',
          status: 'PUBLISHED',
          sections: [
            {
              blocks: [
                { id: 'd3', status: 'DRAFT' },
                { id: 'p4', status: 'PUBLISHED' },
              ],
            },
          ],
        },
        [{ id: 'd1', status: 'DRAFT' }],
      ],
    };
    const seen = new Set<string>();
    expect(dropDrafts(answer, seen)).toEqual({
      items: [
        { id: 'p1', status: 'PUBLISHED', related: [{ id: 'p2', status: 'PUBLISHED' }], lead: null },
        { id: 'p3', status: 'PUBLISHED', sections: [{ blocks: [{ id: 'p4', status: 'PUBLISHED' }] }] },
        [],
      ],
    });
    expect([...seen].sort()).toEqual(['d1', 'd2', 'd3']);
    expect(JSON.stringify(dropDrafts(answer, new Set()))).not.toContain('DRAFT');
  });

  it('leaves the input as it was and shares the parts without drafts', () => {
    const clean = { id: 'p2', status: 'PUBLISHED', tags: ['a'] };
    const answer = { list: [clean, { id: 'p1', children: [{ id: 'd', status: 'DRAFT' }] }] };
    const copy = structuredClone(answer);
    const out = dropDrafts(answer, new Set());
    expect(answer).toEqual(copy);
    expect(out.list[0]).toBe(clean);
    expect(out.list[1]).toEqual({ id: 'p1', children: [] });
  });

  it('passes nulls, strings and numbers through, in lists and in fields', () => {
    const answer = { lead: null, list: [null, 'x', 3, { id: 'd', status: 'DRAFT' }, { title: null, n: 0 }], title: 'News' };
    expect(dropDrafts(answer, new Set())).toEqual({ lead: null, list: [null, 'x', 3, { title: null, n: 0 }], title: 'News' });
    expect(dropDrafts(null, new Set())).toBeNull();
  });

  it('names a draft without an id by its slug, else by its place', () => {
    const seen = new Set<string>();
    dropDrafts([{ slug: 'draft-news', status: 'DRAFT' }, { status: 'DRAFT' }, { status: 'DRAFT' }], seen);
    expect([...seen]).toEqual(['draft-news', '#1', '#2']);
  });

  it('wraps a client so that no answer it gives has a draft, counting each draft once across answers', async () => {
    const asked: unknown[] = [];
    const client: GraphQLClientHandle = {
      name: 'backend',
      endpoint: 'http://127.0.0.1:1/graphql',
      requestCount: () => asked.length,
      request: async <T>(document: string, variables?: Record<string, unknown>) => {
        asked.push([document, variables]);
        return {
          list: [
            { id: 'p', status: 'PUBLISHED' },
            { id: 'd', status: 'DRAFT' },
          ],
        } as T;
      },
    };
    const filter = withoutDrafts(client);
    expect([filter.client.name, filter.client.endpoint]).toEqual(['backend', 'http://127.0.0.1:1/graphql']);
    expect(await filter.client.request('query List { list { id status } }', { n: 1 })).toEqual({
      list: [{ id: 'p', status: 'PUBLISHED' }],
    });
    expect(await filter.client.request('query List { list { id status } }')).toEqual({ list: [{ id: 'p', status: 'PUBLISHED' }] });
    expect(asked).toEqual([
      ['query List { list { id status } }', { n: 1 }],
      ['query List { list { id status } }', undefined],
    ]);
    expect([filter.left(), filter.client.requestCount()]).toEqual([1, 2]);
  });
});
