import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRoute, type RouteDefinition } from '../../runtime/routes.ts';
import { readBuild } from '../../cli/output/output.ts';
import type { BuildMeta, Payload } from '../../runtime/shared/contract.ts';
import { LIST_PAGE_SIZE, NEWS_PAGE_SIZE } from '../../site/queries/document.ts';
import { routes } from '../../site/routes.ts';
import { buildSampleSite } from '../helpers/cli.ts';

/**
 * Lists scale: starting from the list pages of the built site and following only the links in their
 * prerendered HTML (no JavaScript, no API: the backend is gone once the build ends), a visitor reaches every
 * item page and every later page, while no list page embeds more than one page of items.
 */

const table: readonly RouteDefinition[] = routes;
const LIST_ROUTES: Record<string, { field: string; size: number }> = {
  // /news shows what the archive's pages do not: up to two pages' worth less one (docs/decisions/stable-news-archive.md).
  news: { field: 'newsItems', size: 2 * NEWS_PAGE_SIZE - 1 },
  'news-page': { field: 'newsItems', size: NEWS_PAGE_SIZE },
  'events-page': { field: 'events', size: LIST_PAGE_SIZE },
  'event-category': { field: 'events', size: LIST_PAGE_SIZE },
  'event-category-page': { field: 'events', size: LIST_PAGE_SIZE },
  publications: { field: 'publications', size: LIST_PAGE_SIZE },
  'publications-page': { field: 'publications', size: LIST_PAGE_SIZE },
  'publication-category': { field: 'publications', size: LIST_PAGE_SIZE },
  'publication-category-page': { field: 'publications', size: LIST_PAGE_SIZE },
  courses: { field: 'courses', size: LIST_PAGE_SIZE },
  'courses-page': { field: 'courses', size: LIST_PAGE_SIZE },
  research: { field: 'researchProjects', size: LIST_PAGE_SIZE },
  'research-page': { field: 'researchProjects', size: LIST_PAGE_SIZE },
  documents: { field: 'documents', size: LIST_PAGE_SIZE },
  'documents-page': { field: 'documents', size: LIST_PAGE_SIZE },
};
// /events shows the backend's upcoming events rather than a connection page.
const LIST_IDS = new Set([...Object.keys(LIST_ROUTES), 'events']);
const ITEM_ROUTES = ['news-article', 'event', 'publication', 'research-project'];

let root: string;
let out: string;
let meta: BuildMeta;
/** Every page path reached from the list pages, and every href seen on them. */
const reached = new Set<string>();
const linked = new Set<string>();

const routeIdOf = (path: string): string | undefined => findRoute(table, path)?.route.id;
const fileOf = (path: string, name: string): string => join(out, path === '/' ? name : `${path.slice(1)}/${name}`);
const payloadOf = async (path: string): Promise<Payload> => JSON.parse(await readFile(fileOf(path, '_payload.json'), 'utf8')) as Payload;

beforeAll(async () => {
  ({ root, dir: out } = await buildSampleSite('site-lists-'));
  ({ meta } = await readBuild(out));

  // Breadth-first over list pages only, reading links the way a browser without JavaScript follows them.
  const queue = ['/news', '/events', '/publications', '/courses', '/research', '/documents'];
  while (queue.length > 0) {
    const path = queue.shift()!;
    if (reached.has(path)) continue;
    reached.add(path);
    const html = await readFile(fileOf(path, 'index.html'), 'utf8');
    for (const [, raw] of html.matchAll(/<a [^>]*href="([^"#?]+)[^"]*"/g)) {
      const href = raw!.replace(/&amp;/g, '&');
      linked.add(href);
      // Files (feeds, calendars, downloads) are not pages, whatever route their path resembles.
      const isPage = !/\.[a-z0-9]+$/i.test(href);
      if (isPage && LIST_IDS.has(routeIdOf(href) ?? '') && !reached.has(href)) queue.push(href);
    }
  }
}, 240_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('paged lists', () => {
  it('reach every later page of every list by plain links', () => {
    const lists = meta.prerendered.filter((p) => LIST_IDS.has(routeIdOf(p) ?? ''));
    expect(lists.filter((p) => p.includes('/page/')).length).toBeGreaterThan(3);
    expect(lists.filter((p) => !reached.has(p))).toEqual([]);
  });

  it('link every news article, event, publication and research project from a list page', () => {
    const items = meta.prerendered.filter((p) => ITEM_ROUTES.includes(routeIdOf(p) ?? ''));
    expect(items.length).toBeGreaterThan(100);
    expect(items.filter((p) => !linked.has(p))).toEqual([]);
  });

  it('embed at most one page of items each, and together every item of the collection exactly once', async () => {
    const seen = new Map<string, string[]>();
    const totals = new Map<string, number>();
    for (const path of reached) {
      const id = routeIdOf(path)!;
      const list = LIST_ROUTES[id];
      if (!list) continue;
      const { data } = await payloadOf(path);
      const connection = (data as Record<string, { nodes: { id: string }[]; totalCount: number }>)[list.field]!;
      expect(connection.nodes.length, path).toBeLessThanOrEqual(list.size);
      // Category pages and their later pages form one collection per category; the rest one per list.
      const key = id.replace(/-page$/, '') + (path.split('/')[2] && id.includes('category') ? `:${path.split('/')[2]}` : '');
      seen.set(key, [...(seen.get(key) ?? []), ...connection.nodes.map((n) => n.id)]);
      // The news archive's pages carry no totalCount (it would change each with every new article): /news has it.
      if (connection.totalCount !== undefined) totals.set(key, connection.totalCount);
    }
    for (const [key, ids] of seen) {
      if (key === 'events') continue;
      expect(new Set(ids).size, key).toBe(ids.length);
      expect(ids.length, key).toBe(totals.get(key));
    }
  });

  it('cover every event between /events (the backend’s upcoming list) and its later pages', async () => {
    const first = (await payloadOf('/events')).data as { home: { upcomingEvents: { id: string }[] }; events: { totalCount: number } };
    const later = [...reached].filter((p) => routeIdOf(p) === 'events-page');
    const ids = [...first.home.upcomingEvents.map((e) => e.id)];
    for (const path of later)
      ids.push(...((await payloadOf(path)).data as { events: { nodes: { id: string }[] } }).events.nodes.map((e) => e.id));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(first.events.totalCount);
  });

  it('link every downloadable document from the document pages', async () => {
    const documents = (await payloadOf('/documents')).data as { documents: { totalCount: number } };
    const files = [...linked].filter((href) => href.startsWith('/media/documents/'));
    expect(new Set(files).size).toBe(documents.documents.totalCount);
  });
});
