import { gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import { describe, expect, it } from 'vitest';
import { createClientPlugins } from '../../rollup.config.ts';
import { ROOT } from '../helpers/cli.ts';

/** The runtime's own code: everything it ships to browsers except the libraries it is built on (React, ReactDOM, wouter) and Sentry. */
const RUNTIME_BUDGET_BYTES = 12 * 1024;

async function gzippedRuntimeSize(): Promise<number> {
  const bundle = await rollup({
    input: `${ROOT}/runtime/index.ts`,
    external: (id) => /^(react|react-dom|scheduler|wouter|regexparam|@sentry\/)/.test(id),
    plugins: createClientPlugins(),
  });
  const { output } = await bundle.generate({ format: 'es', inlineDynamicImports: true });
  await bundle.close();
  const code = output.map((o) => (o.type === 'chunk' ? o.code : '')).join('\n');
  return gzipSync(code, { level: 9 }).length;
}

describe('runtime size budget', () => {
  it(`stays under ${RUNTIME_BUDGET_BYTES / 1024} kB gzipped without React, ReactDOM, wouter and Sentry`, async () => {
    const size = await gzippedRuntimeSize();
    console.log(`runtime: ${(size / 1024).toFixed(2)} kB gzipped`);
    expect(size).toBeGreaterThan(2 * 1024);
    expect(size).toBeLessThan(RUNTIME_BUDGET_BYTES);
  });
});
