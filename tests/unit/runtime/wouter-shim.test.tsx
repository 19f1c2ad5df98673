import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'rollup';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createClientPlugins } from '../../../rollup.config.ts';
import { LocationContext, type LocationSource } from '../../../runtime/location.ts';
import * as shim from '../../../runtime/wouter-shim.ts';
import { ROOT } from '../../helpers/cli.ts';

/** Every name site and runtime code imports from wouter (type-only imports aside). */
function wouterImports(): string[] {
  const names = new Set<string>();
  for (const dir of ['site', 'runtime']) {
    for (const file of readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })) {
      if (!/\.tsx?$/.test(file)) continue;
      for (const [, list] of readFileSync(join(ROOT, dir, file), 'utf8').matchAll(/import \{([^}]*)\} from 'wouter'/g)) {
        for (const name of list!.split(',').map((n) => n.trim())) if (name && !name.startsWith('type ')) names.add(name.split(/\s+as\s+/)[0]!);
      }
    }
  }
  return [...names].sort();
}

describe("the browser's wouter (runtime/wouter-shim.ts)", () => {
  it('is what the browser build resolves wouter to', async () => {
    const plugin = createClientPlugins().find((p: Plugin) => p.name === 'wouter-shim');
    const resolveId = plugin?.resolveId as ((source: string) => string | null) | undefined;
    expect(resolveId?.('wouter')).toBe(join(ROOT, 'runtime/wouter-shim.ts'));
    expect(resolveId?.('react')).toBeNull();
  });

  it('provides every wouter export that site and runtime code imports', () => {
    const imported = wouterImports();
    expect(imported).toContain('useLocation');
    expect(imported.filter((name) => !(name in shim))).toEqual([]);
  });

  it("reads the path and the query from the app's navigation state", () => {
    const source: LocationSource = { getState: () => ({ path: '/courses', search: '?level=Master' }), subscribe: () => () => undefined, navigate: () => Promise.resolve() };
    function Where(): string {
      const [path] = shim.useLocation();
      return `${path} with ${shim.useSearch()}`;
    }
    const html = renderToString(
      <LocationContext.Provider value={source}>
        <shim.Router>
          <Where />
        </shim.Router>
      </LocationContext.Provider>,
    );
    expect(html).toBe('/courses with level=Master');
  });
});
