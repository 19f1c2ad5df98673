import { readFile } from 'node:fs/promises';
import { buildSchema } from 'graphql';
import { describe, expect, it } from 'vitest';
import type { BuildState, RememberedPage } from '../../../cli/build/build-state.ts';
import { planRoutes, routeTypesOf } from '../../../cli/build/changed-routes.ts';
import { dataJsonOf } from '../../../cli/content/kept-pages.ts';
import { typesRead } from '../../../cli/content/types-read.ts';
import { NEWS_ARTICLES_QUERY } from '../../../site/queries/news.ts';
import { EVENT_CATEGORY_QUERY } from '../../../site/queries/events.ts';

const schema = buildSchema(await readFile(new URL('../../../site/schema.graphql', import.meta.url), 'utf8'));

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

const page = (route: string): RememberedPage => ({ hash: 'h', noindex: false, bytes: 1, links: [], inspected: { path: '', route, title: null, ids: '', imagesWithoutAlt: [], htmlChars: 0, payloadChars: 0, payloadBytesOverBudget: null } });
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
      { path: '/news/a', routeId: 'news-article' },
      { path: '/news/b', routeId: 'news-article' },
      { path: '/about/people', routeId: 'people' },
    ]);
  });

  it('asks for a route the previous build did not record (a new route), and for none other when nothing changed', () => {
    expect([...planRoutes(routes, previous, routeTypes, []).crawl]).toEqual(['courses']);
  });

  it('counts a deletion like an edit: a type shared by two routes reaches both', () => {
    const plan = planRoutes(routes, previous, { ...routeTypes, courses: ['Course'], people: ['Person', 'Category'] }, [{ type: 'Category', id: 'c', kind: 'delete' }]);
    expect([...plan.crawl].sort()).toEqual(['event', 'people']);
    expect(plan.kept.map((k) => k.path)).toEqual(['/news/a', '/news/b']);
  });
});

describe('routeTypesOf', () => {
  it("joins a route's own query and the documents its entries sent; a route not asked for keeps what it read before", () => {
    const documents = new Map([['news-article', new Set([NEWS_ARTICLES_QUERY])]]);
    const routeData = { 'news-article': { query: '{ newsItem(slug: "a") { id } }' }, event: { query: '{ event(category: "a", slug: "b") { id } }' }, people: { query: '{ people { nodes { id } } }' }, courses: { query: '{ courses { nodes { id } } }' } };
    const result = routeTypesOf(schema, routes, routeData, documents, (id) => id !== 'people', { people: ['Person', 'Old'] });
    expect(result['news-article']).toEqual(typesRead(schema, NEWS_ARTICLES_QUERY));
    expect(result.event).toEqual(['Event']);
    expect(result.people).toEqual(['Person', 'Old']);
    expect(result.courses).toEqual(['Course', 'CourseConnection']);
  });
});

describe('dataJsonOf', () => {
  it("gives back the data JSON exactly as the build spliced it into the payload, whatever the data holds", () => {
    const data = '{"a":"\\"data\\":1,\\"prerenderedAt\\":2","b":[1,2]}';
    expect(dataJsonOf(`{"v":1,"buildId":"x","path":"/a","data":${data},"prerenderedAt":"2026-01-01T00:00:00.000Z"}`, '/a')).toBe(data);
  });

  it('names the page when the payload is not one this generator writes', () => {
    expect(() => dataJsonOf('{"v":1}', '/news/a')).toThrow(/\/news\/a/);
  });
});
