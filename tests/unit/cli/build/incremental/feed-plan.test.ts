import { readFile } from 'node:fs/promises';
import { buildSchema, type GraphQLSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { BuildState, RememberedPage } from '../../../../../cli/build/incremental/build-state.ts';
import { feedPlan, type FeedPlan } from '../../../../../cli/build/incremental/feed-plan.ts';
import type { SavedBuild } from '../../../../../cli/build/incremental/incremental.ts';
import { readChangeFeed } from '../../../../../cli/content/change-feed.ts';
import { createMemoryLogger } from '../../../../../cli/terminal/logger.ts';
import { GraphQLRequestError, type GraphQLClientHandle } from '../../../../../runtime/shared/graphql.ts';
import type { ChangeFeedAnswer, ChangeFeedDefinition } from '../../../../../runtime/shared/route-data.ts';

/**
 * When the site has no change feed, or the feed cannot be read, or it says the previous build's cursor
 * is expired, the build must ask for every page and compare (build.ts: `plan = feed?.routes`, no plan:
 * nothing skipped). Each fallback case is set against the same saved build that, with a well-formed
 * answer of zero changes, would ask for no route at all: without the fallback these tests would see an
 * empty plan.
 */

const siteSchema = buildSchema(await readFile(new URL('../../../../../site/schema.graphql', import.meta.url), 'utf8'));
const SOURCE = 'http://127.0.0.1:1/graphql';

const page = (route: string): RememberedPage => ({
  hash: `h-${route}`,
  noindex: false,
  bytes: 1,
  links: [],
  inspected: { path: '', route, title: null, ids: '', imagesWithoutAlt: [], htmlChars: 0, payloadChars: 0, payloadBytesOverBudget: null },
});
const routes = [{ id: 'news-article' }, { id: 'event' }, { id: 'people' }];
// Every route was seen by the previous build: with no change, none needs asking.
const routeTypes = { 'news-article': ['NewsItem', 'NewsItemConnection'], event: ['Category', 'Event'], people: ['Person'] };
const saved = (): SavedBuild => ({
  state: {
    buildId: 'b1',
    save: 's1',
    pages: new Map([
      ['/news/a', page('news-article')],
      ['/events/talks/x', page('event')],
      ['/about/people', page('people')],
    ]),
    outputs: new Map(),
    media: new Set(),
    search: null,
    feed: { cursor: 'c1', source: SOURCE, routeTypes },
    warnings: null,
    sample: [],
  } satisfies BuildState,
});

const FEED_QUERY = 'query Changes($since: String) { changes(since: $since) { cursor expired changes { type id kind } } }';
const feed: ChangeFeedDefinition = { query: FEED_QUERY, read: (result) => result as ChangeFeedAnswer };

/** A hand-made client: answers every request with `answer()` (which may throw or reject), recording the variables. */
function fakeClient(answer: () => unknown): GraphQLClientHandle & { asked: unknown[] } {
  const asked: unknown[] = [];
  return {
    name: 'test',
    endpoint: SOURCE,
    asked,
    requestCount: () => asked.length,
    async request<TData>(_document: string, variables?: Record<string, unknown>): Promise<TData> {
      asked.push(variables);
      return (await answer()) as TData;
    },
  };
}

function run(client: GraphQLClientHandle, options: { feed?: ChangeFeedDefinition | undefined; schema?: GraphQLSchema } = {}) {
  const logger = createMemoryLogger();
  let schemaLoads = 0;
  const schema = (): Promise<GraphQLSchema> => (schemaLoads++, Promise.resolve(options.schema ?? siteSchema));
  const result = feedPlan({
    feed: 'feed' in options ? options.feed : feed,
    shard: false,
    source: SOURCE,
    client,
    saved: saved(),
    routes,
    routeData: {},
    schema,
    logger,
  });
  return { result, logger, schemaLoads: () => schemaLoads };
}

/** The routes the build asks the backend for, as build.ts reads the plan (no plan: every route). */
const routesAsked = (result: FeedPlan | null): string[] =>
  routes.filter((r) => !result?.routes || result.routes.crawl.has(r.id)).map((r) => r.id);
const ALL = routes.map((r) => r.id);
const warnings = (lines: readonly string[]): string[] => lines.filter((l) => l.includes('warning:'));

describe('feedPlan: a well-formed answer with no change (the contrast)', () => {
  it('asks for no route and keeps every previous page, from the previous cursor', async () => {
    const client = fakeClient(() => ({ cursor: 'c2', expired: false, changes: [] }));
    const { result, logger, schemaLoads } = run(client);
    const plan = await result;
    expect(client.asked).toEqual([{ since: 'c1' }]);
    expect(plan).not.toBeNull();
    expect(plan!.cursor).toBe('c2');
    expect(plan!.routes).not.toBeNull();
    expect([...plan!.routes!.crawl]).toEqual([]);
    expect(routesAsked(plan)).toEqual([]);
    expect(plan!.routes!.kept.map((k) => k.path).sort()).toEqual(['/about/people', '/events/talks/x', '/news/a']);
    expect(warnings(logger.lines)).toEqual([]);
    expect(schemaLoads()).toBe(0);
  });
});

describe('feedPlan: no change feed in the site', () => {
  it('returns null (every page is asked for), without asking the backend or warning', async () => {
    const client = fakeClient(() => ({ cursor: 'c2', expired: false, changes: [] }));
    const { result, logger } = run(client, { feed: undefined });
    const plan = await result;
    expect(plan).toBeNull();
    expect(routesAsked(plan)).toEqual(ALL);
    expect(client.asked).toEqual([]);
    expect(logger.lines).toEqual([]);
  });
});

describe('feedPlan: the feed request fails', () => {
  it('falls back to every page, with a warning naming the failure, when the request rejects with a GraphQLRequestError', async () => {
    const failure = new GraphQLRequestError({
      kind: 'http',
      operation: 'Changes',
      status: 503,
      endpoint: SOURCE,
      reason: 'HTTP 503',
      message: `Changes failed at ${SOURCE}: HTTP 503 Service Unavailable`,
    });
    const client = fakeClient(() => Promise.reject(failure));
    const { result, logger } = run(client);
    const plan = await result;
    expect(client.asked).toEqual([{ since: 'c1' }]);
    expect(plan).toBeNull();
    expect(routesAsked(plan)).toEqual(ALL);
    const warned = warnings(logger.lines);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('[changes] warning:');
    expect(warned[0]).toContain("the backend's change feed could not be read");
    expect(warned[0]).toContain('HTTP 503 Service Unavailable');
    expect(warned[0]).toContain('every page is asked for and compared');
  });

  it('falls back to every page, with a warning naming the cause, on a plain network error', async () => {
    const client = fakeClient(() =>
      Promise.reject(new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') })),
    );
    const { result, logger } = run(client);
    const plan = await result;
    expect(plan).toBeNull();
    expect(routesAsked(plan)).toEqual(ALL);
    const warned = warnings(logger.lines);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/change feed could not be read \(fetch failed \(connect ECONNREFUSED 127\.0\.0\.1:1\)\)/);
  });

  it("falls back to every page when the site's `read` throws on the answer", async () => {
    const throwing: ChangeFeedDefinition = {
      query: FEED_QUERY,
      read: () => {
        throw new Error('changes.cursor is not there');
      },
    };
    const { result, logger } = run(
      fakeClient(() => ({ changes: null })),
      { feed: throwing },
    );
    const plan = await result;
    expect(plan).toBeNull();
    expect(routesAsked(plan)).toEqual(ALL);
    expect(warnings(logger.lines).join('\n')).toContain('changes.cursor is not there');
  });
});

describe('feedPlan: a malformed answer', () => {
  const malformed: [string, unknown][] = [
    ['no cursor', { expired: false, changes: [] }],
    ['a cursor that is a number', { cursor: 42, expired: false, changes: [] }],
    ['a cursor that is null', { cursor: null, expired: false, changes: [] }],
    ['no list of changes', { cursor: 'c2', expired: false }],
    ['changes that are an object, not a list', { cursor: 'c2', expired: false, changes: { type: 'Person', id: 'p', kind: 'upsert' } }],
    ['changes that are a string', { cursor: 'c2', expired: false, changes: 'none' }],
    ['a null body', null],
    ['a string body', 'not json'],
    ['an empty cursor', { cursor: '', expired: false, changes: [] }],
    ['no word on whether the cursor expired', { cursor: 'c2', changes: [] }],
    ['a change that is null', { cursor: 'c2', expired: false, changes: [null] }],
    ['a change without a type', { cursor: 'c2', expired: false, changes: [{ id: 'p', kind: 'upsert' }] }],
    ['a change whose type is a number', { cursor: 'c2', expired: false, changes: [{ type: 12, id: 'p', kind: 'upsert' }] }],
    ['a change without an id', { cursor: 'c2', expired: false, changes: [{ type: 'Person', kind: 'upsert' }] }],
    ['a change with an empty id', { cursor: 'c2', expired: false, changes: [{ type: 'Person', id: '', kind: 'upsert' }] }],
    ['a change of an unknown kind', { cursor: 'c2', expired: false, changes: [{ type: 'Person', id: 'p', kind: 'moved' }] }],
  ];

  it.each(malformed)('falls back to every page, with a warning, on %s', async (_what, body) => {
    const { result, logger } = run(fakeClient(() => body));
    const plan = await result;
    expect(plan).toBeNull();
    expect(routesAsked(plan)).toEqual(ALL);
    const warned = warnings(logger.lines);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain("the backend's change feed could not be read");
  });

  it('names the missing cursor or list in its warning', async () => {
    const { result, logger } = run(fakeClient(() => ({ cursor: 7, changes: [] })));
    await result;
    expect(warnings(logger.lines)[0]).toContain('its answer has no cursor');
  });

  it('names the change it cannot use in its warning', async () => {
    const { result, logger } = run(
      fakeClient(() => ({
        cursor: 'c2',
        expired: false,
        changes: [
          { type: 'Person', id: 'p', kind: 'upsert' },
          { type: 'Person', kind: 'upsert' },
        ],
      })),
    );
    await result;
    expect(warnings(logger.lines)[0]).toContain(
      'its answer lists a change without a type, an id or a kind ({"type":"Person","kind":"upsert"})',
    );
  });
});

describe('feedPlan: a change to a type the routes do not select as such', () => {
  it('asks for every page when a change names an interface or a union, whose object types the routes select', async () => {
    // The site's schema, with an interface its people implement and a union of them: a feed that names
    // either would otherwise match no route by name, and every page would be kept.
    const schema = buildSchema(
      `${await readFile(new URL('../../../../../site/schema.graphql', import.meta.url), 'utf8')}\ninterface Named { name: String }\nunion Anyone = Person\nextend type Person implements Named`,
    );
    for (const type of ['Named', 'Anyone']) {
      const { result, logger } = run(
        fakeClient(() => ({ cursor: 'c2', expired: false, changes: [{ type, id: 'person-1', kind: 'upsert' }] })),
        { schema },
      );
      const plan = await result;
      expect(routesAsked(plan), type).toEqual(ALL);
      expect(warnings(logger.lines).join('\n'), type).toContain(
        `names the type "${type}", which is not an object type of site/schema.graphql`,
      );
    }
  });
});

describe('readChangeFeed on its own', () => {
  it('gives null and says why when the answer is malformed, and the answer itself when it is well formed', async () => {
    const problems: string[] = [];
    expect(
      await readChangeFeed(
        fakeClient(() => ({ cursor: 1, changes: [] })),
        feed,
        'c1',
        (m) => problems.push(m),
      ),
    ).toBeNull();
    expect(problems).toHaveLength(1);
    const good = { cursor: 'c2', expired: false, changes: [] };
    expect(
      await readChangeFeed(
        fakeClient(() => good),
        feed,
        'c1',
        (m) => problems.push(m),
      ),
    ).toEqual(good);
    expect(problems).toHaveLength(1);
  });
});

describe('feedPlan: the cursor is expired or unknown', () => {
  it('asks for every page (routes: null) and says so, taking the new cursor', async () => {
    const client = fakeClient(() => ({ cursor: 'c9', expired: true, changes: [] }));
    const { result, logger, schemaLoads } = run(client);
    const plan = await result;
    expect(client.asked).toEqual([{ since: 'c1' }]);
    expect(plan).not.toBeNull();
    expect(plan!.cursor).toBe('c9');
    expect(plan!.source).toBe(SOURCE);
    expect(plan!.routes).toBeNull();
    expect(routesAsked(plan)).toEqual(ALL);
    // The code says it as info, not as a warning.
    expect(logger.lines).toContain(
      "[changes] the backend's change feed no longer reaches back to the previous build: every page is asked for and compared",
    );
    expect(schemaLoads()).toBe(0);
  });

  it('asks for every page even when the expired answer lists changes that would reach only one route', async () => {
    const { result } = run(fakeClient(() => ({ cursor: 'c9', expired: true, changes: [{ type: 'Person', id: 'p', kind: 'upsert' }] })));
    const plan = await result;
    expect(plan!.routes).toBeNull();
    expect(routesAsked(plan)).toEqual(ALL);
  });

  it('(contrast) the same changes, not expired, ask for the one route they reach', async () => {
    const { result } = run(fakeClient(() => ({ cursor: 'c9', expired: false, changes: [{ type: 'Person', id: 'p', kind: 'upsert' }] })));
    expect(routesAsked(await result)).toEqual(['people']);
  });
});
