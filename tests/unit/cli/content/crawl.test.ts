import { describe, expect, it } from 'vitest';
import { crawl, pathFor, type PageJob } from '../../../../cli/content/crawl.ts';
import type { PageFailure } from '../../../../cli/errors/errors.ts';
import type { RouteDefinition } from '../../../../runtime/routes.ts';
import type { RouteDataContext, RouteDataDefinition, RouteEntry } from '../../../../runtime/shared/route-data.ts';

/** The crawl hands pages on in route order, while the next routes' lists are already being fetched. */

const routeFor = (id: string, path: string): RouteDefinition => ({
  id,
  page: id,
  path,
  load: () => Promise.reject(new Error('not loaded')),
  head: () => ({ title: '', description: '' }),
});

/** A backend whose answers arrive only when the test lets them, recording which lists were asked for. */
function heldBackend() {
  const asked: string[] = [];
  const waiting = new Map<string, () => void>();
  const ctx: RouteDataContext = {
    request<TData>(document: string): Promise<TData> {
      asked.push(document);
      return new Promise((resolve) => waiting.set(document, () => resolve({} as TData)));
    },
  };
  const answer = (document: string): void => {
    waiting.get(document)!();
    waiting.delete(document);
  };
  return { ctx, asked, answer };
}

/** A dynamic route listing `count` pages after one request for `document`, or failing after it. */
function listed(document: string, count: number, fail = false): RouteDataDefinition {
  return {
    query: document,
    async *entries(ctx): AsyncGenerator<RouteEntry> {
      await ctx.request(document);
      if (fail) throw Object.assign(new Error(`${document} failed`), { operation: document });
      for (let i = 0; i < count; i++) yield { params: { slug: `${document.toLowerCase()}-${i}` }, data: { i } };
    },
  };
}

const flush = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 10));

describe('crawl', () => {
  const routes = [
    routeFor('home', '/'),
    routeFor('a', '/a/:slug'),
    routeFor('b', '/b/:slug'),
    routeFor('c', '/c/:slug'),
    routeFor('d', '/d/:slug'),
  ];

  it('asks for the next two routes’ lists while a route’s pages are handed on, and keeps route order', async () => {
    const backend = heldBackend();
    const routeData = { home: { query: 'Home' }, a: listed('A', 2), b: listed('B', 1), c: listed('C', 2), d: listed('D', 1) };
    const jobs = crawl(routes, routeData, backend.ctx, () => undefined);
    const paths: string[] = [];
    const take = async (): Promise<void> => {
      const next = await jobs.next();
      if (!next.done) paths.push((next.value as PageJob).path);
    };

    await take();
    await flush();
    // The home page needs no list; the lists of a and b (and only those) are being fetched.
    expect(paths).toEqual(['/']);
    expect(backend.asked).toEqual(['A', 'B']);

    // b answers first: its pages wait for a's, which come first.
    backend.answer('B');
    const pending = take();
    await flush();
    expect(paths).toEqual(['/']);
    backend.answer('A');
    await pending;
    // Reaching route a started c's list.
    expect(backend.asked).toEqual(['A', 'B', 'C']);
    await take();
    await take();
    expect(backend.asked).toEqual(['A', 'B', 'C', 'D']);
    backend.answer('C');
    backend.answer('D');
    for (let i = 0; i < 4; i++) await take();
    expect((await jobs.next()).done).toBe(true);
    expect(paths).toEqual(['/', '/a/a-0', '/a/a-1', '/b/b-0', '/c/c-0', '/c/c-1', '/d/d-0']);
  });

  it('reports a route whose list failed at its turn, and goes on with the next routes', async () => {
    const ctx: RouteDataContext = { request: <TData>() => Promise.resolve({} as TData) };
    const routeData = { home: { query: 'Home' }, a: listed('A', 1), b: listed('B', 1, true), c: listed('C', 1), d: listed('D', 1) };
    const failures: PageFailure[] = [];
    const paths: string[] = [];
    for await (const job of crawl(routes, routeData, ctx, (failure) => failures.push(failure))) {
      paths.push(job.path);
      // b failed long before its turn; its failure is reported only once a's pages are handed on.
      if (job.path === '/a/a-0') expect(failures).toEqual([]);
    }
    expect(paths).toEqual(['/', '/a/a-0', '/c/c-0', '/d/d-0']);
    expect(failures).toEqual([
      expect.objectContaining({ page: '/b/:slug', route: 'b', operation: 'B', cause: expect.stringContaining('B failed') }),
    ]);
  });

  it('stops the lists being fetched ahead when the build stops early', async () => {
    const stopped: string[] = [];
    const endless = (name: string): RouteDataDefinition => ({
      query: name,
      async *entries(): AsyncGenerator<RouteEntry> {
        try {
          for (let i = 0; ; i++) yield { params: { slug: `${name}-${i}` } };
        } finally {
          stopped.push(name);
        }
      },
    });
    const ctx: RouteDataContext = { request: <TData>() => Promise.resolve({} as TData) };
    const routeData = { home: { query: 'Home' }, a: endless('a'), b: endless('b'), c: endless('c'), d: endless('d') };
    const jobs = crawl(routes, routeData, ctx, () => undefined);
    await jobs.next();
    await jobs.next();
    await flush();
    await jobs.return(undefined);
    // a was being handed on, b and c were listed ahead; d was never started.
    expect(stopped.sort()).toEqual(['a', 'b', 'c']);
  });

  it('gives every route a context with the same build key, so lists shared by routes are fetched once', async () => {
    const ctx: RouteDataContext = { request: <TData>() => Promise.resolve({} as TData) };
    const keys: (object | undefined)[] = [];
    const keyed: RouteDataDefinition = {
      query: 'Keyed',
      async *entries(routeCtx): AsyncGenerator<RouteEntry> {
        keys.push(routeCtx.buildKey);
        yield { params: { slug: `page-${keys.length}` } };
      },
    };
    const routeData = { home: { query: 'Home' }, a: keyed, b: keyed, c: keyed, d: keyed };
    for await (const job of crawl(routes, routeData, ctx, () => undefined)) void job;
    expect(keys).toHaveLength(4);
    expect(new Set(keys)).toEqual(new Set([ctx]));
  });

  it('with keep, hands on only the kept pages and tells each route’s entries which params are wanted', async () => {
    const ctx: RouteDataContext = { request: <TData>() => Promise.resolve({} as TData) };
    const asked: string[] = [];
    const wantedOf = new Map<string, boolean>();
    // Lists every page's params, asking `wants` of each, and brings data for the wanted ones only.
    const sharing = (name: string): RouteDataDefinition => ({
      query: name,
      async *entries(routeCtx): AsyncGenerator<RouteEntry> {
        for (const slug of [`${name}-0`, `${name}-1`, 'Not Safe']) {
          const wanted = routeCtx.wants?.({ slug }) ?? true;
          wantedOf.set(`${name}/${slug}`, wanted);
          if (wanted) asked.push(slug);
          if (slug !== 'Not Safe') yield wanted ? { params: { slug }, data: { slug } } : { params: { slug } };
        }
      },
    });
    const keep = (routeId: string, path: string): boolean => (routeId === 'home' ? false : path.endsWith('-1'));
    const routeData = { home: { query: 'Home' }, a: sharing('a'), b: sharing('b'), c: sharing('c'), d: sharing('d') };
    const jobs: PageJob[] = [];
    for await (const job of crawl(routes, routeData, ctx, () => undefined, { keep })) jobs.push(job);
    expect(jobs.map((job) => job.path)).toEqual(['/a/a-1', '/b/b-1', '/c/c-1', '/d/d-1']);
    expect(jobs.every((job) => job.data !== undefined)).toBe(true);
    expect(wantedOf.get('a/a-0')).toBe(false);
    expect(wantedOf.get('a/a-1')).toBe(true);
    // Params that make no safe path are wanted, so the entry is listed and its error names the item.
    expect(wantedOf.get('a/Not Safe')).toBe(true);
  });

  it('without keep, tells entries nothing: every page is wanted', async () => {
    const ctx: RouteDataContext = { request: <TData>() => Promise.resolve({} as TData) };
    const told: unknown[] = [];
    const listing: RouteDataDefinition = {
      query: 'L',
      async *entries(routeCtx): AsyncGenerator<RouteEntry> {
        told.push(routeCtx.wants);
        yield { params: { slug: 'x' } };
      },
    };
    const paths: string[] = [];
    for await (const job of crawl(
      routes,
      { home: { query: 'Home' }, a: listing, b: listing, c: listing, d: listing },
      ctx,
      () => undefined,
    ))
      paths.push(job.path);
    expect(paths).toEqual(['/', '/a/x', '/b/x', '/c/x', '/d/x']);
    expect(told).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('crawl: pages an update in place keeps unasked', () => {
  const route = routeFor('item', '/items/:slug');
  const entries = (claim: (ctx: RouteDataContext, slug: string) => boolean): RouteDataDefinition => ({
    query: 'Item',
    async *entries(ctx): AsyncGenerator<RouteEntry> {
      for (const slug of ['a', 'b', 'c']) {
        if (claim(ctx, slug)) yield { params: { slug }, key: 'k', unchanged: true };
        else yield { params: { slug }, key: 'k', data: { slug } };
      }
    },
  });
  const ctx: RouteDataContext = { request: () => Promise.reject(new Error('no request expected')) };

  it('hands on the pages the route asked for, with their key, and passes on those it gives as unchanged when the build said so', async () => {
    const kept: string[] = [];
    const jobs: PageJob[] = [];
    const asked: string[] = [];
    const unchanged = () => (path: string, key: string) => (asked.push(`${path} ${key}`), path !== '/items/b');
    for await (const job of crawl([route], { item: entries((c, slug) => c.unchanged!({ slug }, 'k')) }, ctx, () => undefined, {
      unchanged,
      onUnchanged: (_, path) => kept.push(path),
    }))
      jobs.push(job);
    expect(asked).toEqual(['/items/a k', '/items/b k', '/items/c k']);
    expect(kept).toEqual(['/items/a', '/items/c']);
    expect(jobs.map((j) => [j.path, j.key])).toEqual([['/items/b', 'k']]);
  });

  it("fails the build when an entry gives as unchanged a page the build did not say it could keep (a route's bug would keep a stale page)", async () => {
    const run = async (options: Parameters<typeof crawl>[4]) => {
      for await (const job of crawl([route], { item: entries((_, slug) => slug === 'b') }, ctx, () => undefined, options)) void job;
    };
    await expect(run({ unchanged: () => (path) => path === '/items/a', onUnchanged: () => undefined })).rejects.toMatchObject({
      code: 'EntryNotUnchanged',
    });
    // Granted for one key, given with another.
    const otherKey: RouteDataDefinition = {
      query: 'Item',
      async *entries(ctx): AsyncGenerator<RouteEntry> {
        if (ctx.unchanged!({ slug: 'a' }, 'asked')) yield { params: { slug: 'a' }, key: 'given', unchanged: true };
      },
    };
    const withOtherKey = async () => {
      for await (const job of crawl([route], { item: otherKey }, ctx, () => undefined, {
        unchanged: () => () => true,
        onUnchanged: () => undefined,
      }))
        void job;
    };
    await expect(withOtherKey()).rejects.toMatchObject({ code: 'EntryNotUnchanged' });
    // In a build that keeps nothing unasked, no page may be given as unchanged.
    await expect(run({})).rejects.toMatchObject({ code: 'EntryNotUnchanged' });
  });
});

describe('pathFor', () => {
  it('refuses a route whose own path is not canonical safe segments, naming the route: the build state and the sitemap take page paths as the crawl makes them', () => {
    expect(pathFor({ id: 'item', path: '/news/:slug' }, { slug: 'a-b' })).toBe('/news/a-b');
    expect(pathFor({ id: 'home', path: '/' }, {})).toBe('/');
    for (const path of ['/about/', '/about//people', '/_drafts/:slug', '/news/:slug/', 'about']) {
      expect(() => pathFor({ id: 'odd', path }, { slug: 'a' }), path).toThrow(expect.objectContaining({ code: 'UnsafeRoutePath' }));
    }
  });
});
