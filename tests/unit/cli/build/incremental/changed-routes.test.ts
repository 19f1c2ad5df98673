import { readFile } from 'node:fs/promises';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { BuildState, RememberedPage } from '../../../../../cli/build/incremental/build-state.ts';
import { planRoutes, routeTypesOf } from '../../../../../cli/build/incremental/changed-routes.ts';
import { feedPlan } from '../../../../../cli/build/incremental/feed-plan.ts';
import type { ChangeFeedAnswer } from '../../../../../runtime/shared/route-data.ts';
import { dataJsonOf } from '../../../../../cli/build/incremental/kept-pages.ts';
import { typesNestedInItems, typesRead, typesWithoutIds } from '../../../../../cli/content/types-read.ts';
import { dependsItems, dependsKey, dependsUnchanged, mediaList, mediaUrls, pageDepends } from '../../../../../cli/content/page-depends.ts';
import { NEWS_ARTICLES_QUERY } from '../../../../../site/queries/news.ts';
import { EVENT_CATEGORY_QUERY } from '../../../../../site/queries/events.ts';

const schema = buildSchema(await readFile(new URL('../../../../../site/schema.graphql', import.meta.url), 'utf8'));

describe('typesRead', () => {
  it('names every object type a document selects, at any depth and through fragments, and no scalar or enum', () => {
    const types = typesRead(schema, NEWS_ARTICLES_QUERY);
    expect(types).toContain('NewsItem');
    expect(types).toContain('NewsItemConnection');
    expect(types).not.toContain('String');
    expect(types).not.toContain('Status');
    expect(types).not.toContain('Event');
    expect(typesRead(schema, EVENT_CATEGORY_QUERY)).toEqual(expect.arrayContaining(['Event', 'Category']));
    expect(typesRead(schema, '{ newsItem(slug: "a") { id title image { url } } }')).toEqual(['Image', 'NewsItem']);
  });
});

const page = (route: string): RememberedPage => ({
  hash: 'h',
  noindex: false,
  bytes: 1,
  links: [],
  inspected: { path: '', route, title: null, ids: '', imagesWithoutAlt: [], htmlChars: 0, payloadChars: 0, payloadBytesOverBudget: null },
});
const previous: Pick<BuildState, 'pages'> = {
  pages: new Map([
    ['/news/a', page('news-article')],
    ['/news/b', page('news-article')],
    ['/events/talks/x', page('event')],
    ['/about/people', page('people')],
  ]),
};
const routes = [{ id: 'news-article' }, { id: 'event' }, { id: 'people' }, { id: 'courses' }];
const routeTypes = { 'news-article': ['NewsItem', 'NewsItemConnection'], event: ['Category', 'Event'], people: ['Person'] };

describe('planRoutes', () => {
  it('asks only for the routes that read a changed type, and keeps every page of the others', () => {
    const plan = planRoutes(routes, previous, routeTypes, [{ type: 'Event', id: 'e1', kind: 'upsert' }]);
    expect([...plan.crawl].sort()).toEqual(['courses', 'event']);
    expect(plan.kept).toEqual([
      { path: '/news/a', routeId: 'news-article', hash: 'h' },
      { path: '/news/b', routeId: 'news-article', hash: 'h' },
      { path: '/about/people', routeId: 'people', hash: 'h' },
    ]);
  });

  it('asks for a route the previous build did not record (a new route), and for none other when nothing changed', () => {
    expect([...planRoutes(routes, previous, routeTypes, []).crawl]).toEqual(['courses']);
  });

  it('counts a deletion like an edit: a type shared by two routes reaches both', () => {
    const plan = planRoutes(routes, previous, { ...routeTypes, courses: ['Course'], people: ['Person', 'Category'] }, [
      { type: 'Category', id: 'c', kind: 'delete' },
    ]);
    expect([...plan.crawl].sort()).toEqual(['event', 'people']);
    expect(plan.kept.map((k) => k.path)).toEqual(['/news/a', '/news/b']);
  });
});

describe('planRoutes, item by item', () => {
  const withItems = (route: string, key: string, items: string[]): RememberedPage => ({ ...page(route), depends: pageDepends(key, items) });
  const before: Pick<BuildState, 'pages'> = {
    pages: new Map([
      ['/news/a', withItems('news-article', 'news-2 news-3', ['news-1', 'news-2', 'news-3'])],
      ['/news/b', withItems('news-article', 'news-1', ['news-2', 'news-1'])],
      ['/news/c', page('news-article')],
      ['/about/people', page('people')],
    ]),
  };
  const routeData = { 'news-article': { query: NEWS_ARTICLES_QUERY }, people: { query: '{ page(slug: "people") { title } }' } };
  const change = (type: string, id: string) => ({ type, id, kind: 'upsert' as const });

  it('keeps unasked a page of an asked route whose data held no changed item and whose key is the same', () => {
    const plan = planRoutes(routes, before, routeTypes, [change('NewsItem', 'news-3')], { schema, routeData });
    const unchanged = plan.unchanged('news-article')!;
    expect(unchanged('/news/b', 'news-1')).toBe(true);
    // It held the changed item; its key differs; it remembered no key; it is another route's; it is new.
    expect(unchanged('/news/a', 'news-2 news-3')).toBe(false);
    expect(unchanged('/news/b', 'news-3')).toBe(false);
    expect(unchanged('/news/c', '')).toBe(false);
    expect(unchanged('/about/people', '')).toBe(false);
    expect(unchanged('/news/new', '')).toBe(false);
    // A route not asked keeps all its pages anyway.
    expect(plan.unchanged('people')).toBeUndefined();
  });

  it('asks for every page of a route that shows a changed type inside another item (a draft published into a project, say)', () => {
    const nested = { ...routeData, 'news-article': { query: '{ newsItem(slug: "a") { id related { id } } }' } };
    const relatedSchema = buildSchema('type NewsItem { id: ID! related: [NewsItem!]! } type Query { newsItem(slug: String!): NewsItem }');
    expect(
      planRoutes(routes, before, routeTypes, [change('NewsItem', 'news-9')], { schema: relatedSchema, routeData: nested }).unchanged(
        'news-article',
      ),
    ).toBeUndefined();
  });

  it('asks for every page of a route whose query may give a changed type without its id, or when a change names no object type', () => {
    const noIds = { ...routeData, 'news-article': { query: '{ newsItem(slug: "a") { title } }' } };
    expect(
      planRoutes(routes, before, routeTypes, [change('NewsItem', 'news-3')], { schema, routeData: noIds }).unchanged('news-article'),
    ).toBeUndefined();
    expect(
      planRoutes(routes, before, { ...routeTypes, 'news-article': ['NewsItem', 'Item'] }, [change('Item', 'x')], {
        schema,
        routeData,
      }).unchanged('news-article'),
    ).toBeUndefined();
    // Without the schema (no item-level dependencies), every page of an asked route is asked.
    expect(planRoutes(routes, before, routeTypes, [change('NewsItem', 'news-3')]).unchanged('news-article')).toBeUndefined();
  });
});

describe('page-depends', () => {
  it("keeps a page's key and item ids in one string, and tells whether a change reaches them", () => {
    const depends = pageDepends('news-2 news-3', ['news-1', 'news-2', 'news-3'])!;
    expect(dependsKey(depends)).toBe('news-2 news-3');
    expect(dependsItems(depends)).toEqual(['news-1', 'news-2', 'news-3']);
    expect(dependsItems(pageDepends('', [])!)).toEqual([]);
    expect(dependsUnchanged(depends, 'news-2 news-3', new Set(['news-4', 'news-']))).toBe(true);
    expect(dependsUnchanged(depends, 'news-2 news-3', new Set(['news-1']))).toBe(false);
    expect(dependsUnchanged(depends, 'news-2 news-3', new Set(['news-3']))).toBe(false);
    // A key that only begins like the page's is another key.
    expect(dependsUnchanged(depends, 'news-2', new Set())).toBe(false);
    expect(dependsUnchanged(undefined, '', new Set())).toBe(false);
    // Many changes: looked up the other way round, with the same answers.
    const many = new Set(Array.from({ length: 20 }, (_, i) => `event-${i}`));
    expect(dependsUnchanged(depends, 'news-2 news-3', many)).toBe(true);
    expect(dependsUnchanged(depends, 'news-2 news-3', new Set([...many, 'news-2']))).toBe(false);
    // Ids that could not be told apart in the string: the page is not kept unasked.
    expect(pageDepends('a\nb', ['x'])).toBeUndefined();
    expect(pageDepends('', ['an id'])).toBeUndefined();
    expect(pageDepends('', [''])).toBeUndefined();
  });

  it("keeps a page's media URLs in one string", () => {
    for (const urls of [[], ['/media/a.png'], ['/media/a.png', '/media/b c.jpg']]) expect(mediaUrls(mediaList(urls))).toEqual(urls);
    const one = '/media/a.png';
    expect(mediaList([one])).toBe(one);
  });
});

describe('routeTypesOf', () => {
  it("joins a route's own query and the documents its entries sent; a route not asked for keeps what it read before", () => {
    const documents = new Map([['news-article', new Set([NEWS_ARTICLES_QUERY])]]);
    const routeData = {
      'news-article': { query: '{ newsItem(slug: "a") { id } }' },
      event: { query: '{ event(category: "a", slug: "b") { id } }' },
      people: { query: '{ people { nodes { id } } }' },
      courses: { query: '{ courses { nodes { id } } }' },
    };
    const result = routeTypesOf(schema, routes, routeData, documents, (id) => id !== 'people', { people: ['Person', 'Old'] });
    expect(result['news-article']).toEqual(typesRead(schema, NEWS_ARTICLES_QUERY));
    // An asked route may have kept pages unasked and sent fewer documents: what it read before still counts.
    expect(routeTypesOf(schema, routes, routeData, new Map(), () => true, { event: ['Before'] }).event).toEqual(['Before', 'Event']);
    expect(result.event).toEqual(['Event']);
    expect(result.people).toEqual(['Person', 'Old']);
    expect(result.courses).toEqual(['Course', 'CourseConnection']);
  });
});

describe('dataJsonOf', () => {
  it('gives back the data JSON exactly as the build spliced it into the payload, whatever the data holds', () => {
    const data = '{"a":"\\"data\\":1,\\"prerenderedAt\\":2","b":[1,2]}';
    expect(dataJsonOf(`{"v":1,"buildId":"x","path":"/a","data":${data},"prerenderedAt":"2026-01-01T00:00:00.000Z"}`, '/a')).toBe(data);
  });

  it('names the page when the payload is not one this generator writes', () => {
    expect(() => dataJsonOf('{"v":1}', '/news/a')).toThrow(/\/news\/a/);
  });
});

describe('typesRead with interfaces, unions and fragments', () => {
  const abstract = buildSchema(`
    interface Item { id: ID! }
    type NewsItem implements Item { id: ID! title: String! }
    type Event implements Item { id: ID! title: String! }
    type Person { id: ID! name: String! }
    union Result = NewsItem | Person
    type Query { item: Item  search: [Result!]! }
  `);

  it('names every type an interface or union can be, and the type each fragment names', () => {
    expect(typesRead(abstract, '{ item { id ... on NewsItem { title } } }')).toEqual(['Event', 'Item', 'NewsItem']);
    expect(typesRead(abstract, '{ search { ...P } } fragment P on Person { name }')).toEqual(['NewsItem', 'Person', 'Result']);
  });
});

describe('typesWithoutIds', () => {
  const abstract = buildSchema(`
    interface Item { id: ID! }
    type NewsItem implements Item { id: ID! title: String! author: Person }
    type Event implements Item { id: ID! title: String! }
    type Person { id: ID! name: String! }
    union Result = NewsItem | Person
    type Query { item: Item  search: [Result!]!  news: [NewsItem!]! }
  `);

  it('names the types a document may answer without their id, at any depth, fragments and conditions included', () => {
    expect(typesWithoutIds(abstract, '{ news { id title author { id name } } }')).toEqual([]);
    expect(typesWithoutIds(abstract, '{ news { id title author { name } } }')).toEqual(['Person']);
    // Aliased, the id is not where the build looks for it; conditional, it may be absent.
    expect(typesWithoutIds(abstract, '{ news { key: id title } }')).toEqual(['NewsItem']);
    expect(typesWithoutIds(abstract, 'query($x: Boolean!) { news { id @include(if: $x) title } }')).toEqual(['NewsItem']);
    // Through fragments: one on the type, one on an interface it implements, one on another type.
    expect(typesWithoutIds(abstract, '{ news { ...F } } fragment F on NewsItem { id title }')).toEqual([]);
    expect(typesWithoutIds(abstract, '{ item { ... on Item { id } } }')).toEqual([]);
    expect(typesWithoutIds(abstract, '{ item { ... on NewsItem { id title } } }')).toEqual(['Event']);
    expect(typesWithoutIds(abstract, '{ search { ... on NewsItem { id } ... on Person { name } } }')).toEqual(['Person']);
    expect(typesWithoutIds(abstract, '{ search { ...P ... on NewsItem { id } } } fragment P on Person { id }')).toEqual([]);
  });

  it("finds the site's item queries naming every item by id, and the types some answer without one", () => {
    expect(typesWithoutIds(schema, NEWS_ARTICLES_QUERY)).not.toContain('NewsItem');
    expect(typesWithoutIds(schema, '{ newsItem(slug: "a") { id title image { url } } }')).toEqual(['Image']);
  });
});

describe('typesNestedInItems', () => {
  const nestedSchema = buildSchema(`
    interface Item { id: ID! }
    type NewsItem implements Item { id: ID! title: String! author: Person image: Image }
    type Person implements Item { id: ID! name: String! }
    type Image { url: String! }
    type Project implements Item { id: ID! publications: [Publication!]! }
    type Publication implements Item { id: ID! title: String! }
    type Query { newsItem(slug: String!): NewsItem  news: [NewsItem!]!  project: Project  item: Item }
  `);

  it('names the types selected inside another item (relations the backend resolves), not those at the top of the query', () => {
    expect(typesNestedInItems(nestedSchema, '{ newsItem(slug: "a") { id title } news { id } }')).toEqual([]);
    expect(typesNestedInItems(nestedSchema, '{ newsItem(slug: "a") { id author { id name } image { url } } }')).toEqual([
      'Image',
      'Person',
    ]);
    expect(typesNestedInItems(nestedSchema, '{ project { id ...P } } fragment P on Project { publications { id } }')).toEqual([
      'Publication',
    ]);
    // A fragment on an item type: its fields are the item's, and their objects are inside it.
    expect(typesNestedInItems(nestedSchema, '{ news { ...N } } fragment N on NewsItem { id author { id } }')).toEqual(['Person']);
  });

  it("finds the site's publications inside research projects, and nothing inside a news article that the feed names", () => {
    const routes = Object.fromEntries(Object.entries({ article: NEWS_ARTICLES_QUERY }).map(([k, q]) => [k, typesNestedInItems(schema, q)]));
    expect(routes.article).not.toContain('NewsItem');
  });
});

describe('feedPlan', () => {
  const state = (source: string) => ({
    state: {
      ...previous,
      buildId: 'b',
      outputs: new Map(),
      media: new Set<string>(),
      search: null,
      feed: { cursor: 'c1', source, routeTypes },
    } as unknown as BuildState,
  });
  const client = (answer: unknown, asked: unknown[] = []) =>
    ({
      name: 'test',
      endpoint: 'http://127.0.0.1:1/graphql',
      requestCount: () => 0,
      request: async (_document: string, variables?: unknown) => (asked.push(variables), answer),
    }) as never;
  const feed = { query: 'query($since: String) { changes(since: $since) { cursor } }', read: (r: unknown) => r as ChangeFeedAnswer };
  const logger = (lines: string[]) =>
    ({
      info: (_: string, m: string) => void lines.push(m),
      warn: (_: string, m: string) => void lines.push(`warning: ${m}`),
      error: () => undefined,
      debug: () => undefined,
    }) as never;

  it('asks for every page when the feed names a type site/schema.graphql does not have (a feed naming types its own way)', async () => {
    const lines: string[] = [];
    const plan = await feedPlan({
      feed,
      shard: false,
      source: 'a',
      client: client({ cursor: 'c2', expired: false, changes: [{ type: 'news', id: '1', kind: 'upsert' }] }),
      saved: state('a'),
      routes,
      routeData: {},
      schema: () => Promise.resolve(schema),
      logger: logger(lines),
    });
    expect(plan).toMatchObject({ cursor: 'c2', routes: null });
    expect(lines.join('\n')).toMatch(
      /names the type "news", which is not an object type of site\/schema.graphql: every page is asked for and compared/,
    );
  });

  it('does not use a cursor from another backend (or drafts where there were none): it starts from where this one stands', async () => {
    const asked: unknown[] = [];
    const plan = await feedPlan({
      feed,
      shard: false,
      source: 'http://production/graphql',
      client: client({ cursor: 'p1', expired: false, changes: [] }, asked),
      saved: state('http://staging/graphql'),
      routes,
      routeData: {},
      schema: () => Promise.resolve(schema),
      logger: logger([]),
    });
    expect(asked).toEqual([{ since: null }]);
    expect(plan).toMatchObject({ cursor: 'p1', source: 'http://production/graphql', routes: null });
  });

  it('with the same backend, plans from the changes since its cursor', async () => {
    const asked: unknown[] = [];
    const plan = await feedPlan({
      feed,
      shard: false,
      source: 'a',
      client: client({ cursor: 'c2', expired: false, changes: [{ type: 'Person', id: 'p', kind: 'upsert' }] }, asked),
      saved: state('a'),
      routes,
      routeData: {},
      schema: () => Promise.resolve(schema),
      logger: logger([]),
    });
    expect(asked).toEqual([{ since: 'c1' }]);
    expect([...plan!.routes!.crawl].sort()).toEqual(['courses', 'people']);
  });

  it("keeps pages item by item only when the feed says its ids are the items' ids as the queries select them", async () => {
    const answer = { cursor: 'c2', expired: false, changes: [{ type: 'NewsItem', id: 'news-3', kind: 'upsert' }] };
    const routeData = { 'news-article': { query: NEWS_ARTICLES_QUERY } };
    const plan = (f: typeof feed & { itemIds?: boolean }) =>
      feedPlan({
        feed: f,
        shard: false,
        source: 'a',
        client: client(answer),
        saved: state('a'),
        routes,
        routeData,
        schema: () => Promise.resolve(schema),
        logger: logger([]),
      });
    expect((await plan(feed))!.routes!.unchanged('news-article')).toBeUndefined();
    expect((await plan({ ...feed, itemIds: true }))!.routes!.unchanged('news-article')).toBeTypeOf('function');
  });
});
