import type { ReactElement } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createBuildManifest } from '../../../runtime/build-manifest.ts';
import { createNavigation } from '../../../runtime/navigation.ts';
import { createStore, initialState } from '../../../runtime/navigation-state.ts';
import { createPageDataLoader } from '../../../runtime/page-data.ts';
import { PayloadError, type PayloadLoader } from '../../../runtime/payload.ts';
import type { PageModule, RouteDefinition } from '../../../runtime/routes.ts';
import type { BootData, BuildMeta } from '../../../runtime/shared/contract.ts';
import { authorizationFor } from '../../../runtime/shared/graphql.ts';

/** Issue 17.5 and 17.6: where the runtime had drifted from the Nuxt 3 site the specification was taken from (docs/decisions/navigation-by-payloads.md). */

const META: BuildMeta = { id: 'b1', timestamp: 1, matcher: {}, prerendered: ['/a', '/b/one'], chunks: {} };

describe("the build manifest's first failure", () => {
  it('is not final: the load is retried, and ready() then gives the manifest, never a guess before', async () => {
    let calls = 0;
    const fetchImpl = (async () => (++calls === 1 ? new Response('gone', { status: 503 }) : Response.json(META))) as typeof fetch;
    const manifest = createBuildManifest('b1', fetchImpl, [5]);
    expect(await manifest.load()).toBeNull();
    expect(await manifest.ready()).toBeNull();
    await vi.waitFor(async () => expect(await manifest.ready()).toEqual(META));
    expect(calls).toBe(2);
    // Loaded once for good: no more requests.
    expect(await manifest.load()).toEqual(META);
    expect(calls).toBe(2);
  });

  it('gives up after its retries, leaving paths unknown rather than all prerendered', async () => {
    let calls = 0;
    const manifest = createBuildManifest('b1', (async () => (calls++, new Response('', { status: 404 }))) as typeof fetch, [1, 1]);
    await manifest.load();
    await vi.waitFor(() => expect(calls).toBe(3));
    expect(await manifest.ready()).toBeNull();
  });
});

describe('the Authorization header', () => {
  it('is `Bearer {token}`, and a token that already carries a scheme is sent as it is', () => {
    expect(authorizationFor('abc.def')).toBe('Bearer abc.def');
    expect(authorizationFor('Bearer abc')).toBe('Bearer abc');
    expect(authorizationFor('Token abc')).toBe('Token abc');
    expect(authorizationFor('Bearerabc')).toBe('Bearer Bearerabc');
  });
});

describe('page data on client navigation', () => {
  const route: RouteDefinition = {
    id: 'b',
    page: 'b',
    path: '/b/:slug',
    load: () => Promise.resolve({ default: () => null }),
    head: () => ({ title: 'B', description: '' }),
  };

  it('asks for no payload of a path the manifest does not list as prerendered, and goes to the API', async () => {
    const payloads = {
      load: vi.fn(async () => ({ v: 1, buildId: 'b1', path: '/b/two', data: 'payload', prerenderedAt: '' })),
      prime: vi.fn(),
    } as unknown as PayloadLoader;
    const live = { isPreview: () => false, load: vi.fn(async () => ({ data: 'live' })) };
    const loader = createPageDataLoader(payloads, live, async (path) => META.prerendered.includes(path));
    expect(await loader.load(route, { slug: 'two' }, '/b/two')).toBe('live');
    expect(payloads.load).not.toHaveBeenCalled();
    // A listed path uses its payload.
    expect(await loader.load(route, { slug: 'one' }, '/b/one')).toBe('payload');
    // Without an API, an unlisted path is the server's to answer (a full load of that URL).
    await expect(
      createPageDataLoader(payloads, undefined, async () => false).load(route, { slug: 'two' }, '/b/two'),
    ).rejects.toBeInstanceOf(PayloadError);
    // While the manifest is not known, the payload is tried.
    expect(await createPageDataLoader(payloads, undefined, async () => null).load(route, { slug: 'two' }, '/b/two')).toBe('payload');
  });
});

describe('the error screen', () => {
  it('keeps the first error: a later one never replaces it', () => {
    const page = { default: (): ReactElement | null => null } satisfies PageModule;
    const routes: RouteDefinition[] = [
      { id: 'a', page: 'a', path: '/a', load: () => Promise.resolve(page), head: () => ({ title: 'A', description: '' }) },
    ];
    const boot: BootData = {
      buildId: 'b1',
      path: '/a',
      routeId: 'a',
      data: {},
      site: {},
      error: null,
      config: { buildCheckInterval: 3_600_000, graphqlEndpoint: null, sentryDsn: null },
    };
    const location = { pathname: '/a', search: '', hash: '' };
    const store = createStore(initialState(boot, location, routes));
    const nav = createNavigation({ routes, boot, modules: new Map([['a', page]]), location, store });
    nav.fail(new Error('the first thing that broke'));
    nav.fail(new Error('what broke because of it'));
    expect(store.get().error?.message).toContain('the first thing that broke');
  });
});
