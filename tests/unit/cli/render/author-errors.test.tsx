import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { crawl } from '../../../../cli/content/crawl.ts';
import { isBuildError, reviveError, threadError } from '../../../../cli/errors/errors.ts';
import { formatError } from '../../../../cli/errors/format-error.ts';
import { createPageRenderer } from '../../../../cli/render/page-renderer.ts';
import type { RenderContext } from '../../../../cli/render/render.tsx';
import { createSharedMarkupCache } from '../../../../cli/render/shared-markup-cache.ts';
import { parseShell } from '../../../../cli/render/template.ts';
import type { RouteDefinition } from '../../../../runtime/routes.ts';
import { SharedMarkup } from '../../../../runtime/shared-markup.ts';
import type { RouteDataContext } from '../../../../runtime/shared/route-data.ts';

/**
 * Every failure a site author can cause prints as a catalogued error, with its code and a hint, never
 * as "unexpected" (the text an uncatalogued error prints with).
 */
function expectCatalogued(run: () => unknown, code: string): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expectCode(caught, code);
}

function expectCode(error: unknown, code: string): void {
  expect(isBuildError(error) && error.code, String(error)).toBe(code);
  const printed = formatError(error);
  expect(printed).toMatch(new RegExp(`^\\[${code}\\] `));
  expect(printed).toMatch(/\nHint: \S/);
  expect(printed).not.toMatch(/--verbose for the stack trace/);
}

const route = (id: string, path: string): RouteDefinition => ({
  id,
  page: id,
  path,
  load: () => Promise.reject(new Error('not loaded')),
  head: () => ({ title: id, description: '' }),
});
const noBackend: RouteDataContext = { request: () => Promise.reject(new Error('no request expected')) };

async function crawlError(routes: RouteDefinition[], routeData: Parameters<typeof crawl>[1]): Promise<unknown> {
  try {
    for await (const _ of crawl(routes, routeData, noBackend, () => undefined));
  } catch (error) {
    return error;
  }
  return null;
}

const TEMPLATE =
  '<!doctype html>\n<html lang="<!--app-lang-->"><head><meta charset="utf-8"><!--app-csp--><!--app-head--></head><body><div id="app"><!--app-html--></div><!--app-boot--><!--app-scripts--></body></html>';

describe('failures a site author causes', () => {
  it('a route without its data entry, and a dynamic route without entries()', async () => {
    expectCode(await crawlError([route('about', '/about')], {}), 'RouteDataMissing');
    expectCode(
      await crawlError([route('news-article', '/news/:slug')], { 'news-article': { query: 'query A { a }' } }),
      'RouteEntriesMissing',
    );
  });

  it('a document shell without a placeholder, or with a tag before the policy', () => {
    expectCatalogued(() => parseShell(TEMPLATE.replace('<!--app-boot-->', '')), 'ShellPlaceholderMissing');
    expectCatalogued(() => parseShell(TEMPLATE.replace('<!--app-csp-->', '<script>x()</script><!--app-csp-->')), 'ShellPolicyNotFirst');
  });

  it('a shared part whose cache key leaves out what its markup depends on', () => {
    const cache = createSharedMarkupCache({ checkEvery: 1 });
    const page = (section: string) => () =>
      renderToString(
        <SharedMarkup cacheKey="header">
          <nav>{section}</nav>
        </SharedMarkup>,
      );
    cache.render('/news/a', page('news'));
    expectCatalogued(() => cache.render('/events/b', page('events')), 'SharedMarkupMismatch');
  });

  it('a page component that throws, on the main thread and after crossing from a render thread', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'author-errors-'));
    try {
      const broken = route('broken', '/broken');
      const Broken = (): never => {
        throw new TypeError("Cannot read properties of undefined (reading 'title')");
      };
      const ctx = {
        buildId: 'b',
        prerenderedAt: new Date(0).toISOString(),
        site: {},
        siteJson: '{}',
        siteName: 'Site',
        language: 'en',
        baseUrl: 'http://localhost',
        routes: [broken],
        layouts: { default: ({ children }: { children: unknown }) => children, home: ({ children }: { children: unknown }) => children },
        modules: new Map([['broken', { default: Broken }]]),
        assets: { entry: '/e.js', entryImports: [], css: '/s.css', pageChunks: {}, hash: 'h' },
        shell: parseShell(TEMPLATE),
        client: { buildCheckInterval: 3_600_000, graphqlEndpoint: null, sentryDsn: null },
        csp: null,
      } as unknown as RenderContext;
      const renderer = createPageRenderer(ctx, dir, 1 << 20);
      const error = await renderer.render({ routeId: 'broken', path: '/broken', params: {}, json: '{}' }).catch((e: unknown) => e);
      expectCode(error, 'PageRenderFailed');
      expect(String((error as Error).message)).toContain(
        "/broken (route broken) failed: Cannot read properties of undefined (reading 'title')",
      );
      await renderer.drain();
      // A thread posts the code, message and cause; the build gets the same catalogued error back,
      // with the cause that --verbose prints.
      const crossed = reviveError(threadError(error));
      expectCode(crossed, 'PageRenderFailed');
      expect(crossed.message).toBe((error as Error).message);
      expect(formatError(crossed, { verbose: true })).toContain("Caused by: Cannot read properties of undefined (reading 'title')");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
