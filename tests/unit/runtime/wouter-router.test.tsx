import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderToString } from 'react-dom/server';
import { rollup } from 'rollup';
import { describe, expect, it } from 'vitest';
import { Route, Router, useLocation, useParams, useRoute, useSearch } from 'wouter';
import { createClientPlugins } from '../../../rollup.config.ts';
import { LocationContext, useNavigationLocation, useNavigationSearch, type LocationSource } from '../../../runtime/location.ts';
import { ROOT } from '../../helpers/cli.ts';

/**
 * wouter routes in the browser as on the server (issue 18.5): the app's Router takes its location from
 * the navigation store through wouter's `hook` and `searchHook`, and the client bundle holds wouter
 * itself, not a stand-in.
 */
function at(path: string, search: string, navigated: string[] = []): LocationSource {
  return {
    getState: () => ({ path, search }),
    subscribe: () => () => undefined,
    navigate: (to) => (navigated.push(to), Promise.resolve()),
  };
}

describe('wouter on the navigation store', () => {
  it("gives site code the store's path and query through wouter's own hooks, routes and params", () => {
    function Where(): string {
      const [path] = useLocation();
      const [isCourse, params] = useRoute('/courses/:level');
      return `${path} ?${useSearch()} ${isCourse ? params.level : '-'}`;
    }
    function Level(): string {
      return `level ${useParams().level}`;
    }
    const html = renderToString(
      <LocationContext.Provider value={at('/courses/master', '?lang=en')}>
        <Router hook={useNavigationLocation} searchHook={useNavigationSearch}>
          <Where />|
          <Route path="/courses/:level">
            <Level />
          </Route>
        </Router>
      </LocationContext.Provider>,
    );
    expect(html.replaceAll('<!-- -->', '')).toBe('/courses/master ?lang=en master|level master');
  });

  it("navigates through the store when site code calls wouter's navigate", () => {
    const navigated: string[] = [];
    function Go(): null {
      const [, navigate] = useLocation();
      navigate('/news');
      return null;
    }
    renderToString(
      <LocationContext.Provider value={at('/', '', navigated)}>
        <Router hook={useNavigationLocation} searchHook={useNavigationSearch}>
          <Go />
        </Router>
      </LocationContext.Provider>,
    );
    expect(navigated).toEqual(['/news']);
  });

  it('is in the client bundle as wouter itself', async () => {
    // Inside the project, so that `wouter` resolves from its node_modules as the site's imports do.
    await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
    const dir = await mkdtemp(join(ROOT, 'node_modules/.cache/wouter-bundle-'));
    try {
      const entry = join(dir, 'entry.ts');
      await writeFile(entry, "import { useRoute } from 'wouter';\nexport const used = useRoute;\n");
      const bundle = await rollup({ input: entry, plugins: createClientPlugins({ minify: false }), logLevel: 'silent' });
      const modules = bundle.watchFiles;
      await bundle.close();
      expect(modules.some((id) => /node_modules[\\/]wouter[\\/]src[\\/]index\.js$/.test(id))).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
