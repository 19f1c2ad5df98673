import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import type { Plugin, RollupOptions } from 'rollup';
import esbuild, { minify } from 'rollup-plugin-esbuild';

/**
 * The client build: site/client.tsx plus the runtime, as one entry and one lazily loaded chunk per
 * route (every page is a dynamic import), content-hashed and minified. cli/bundle.ts runs it through
 * rollup's JS API; `npx rollup -c rollup.config.ts --configPlugin esbuild` runs it standalone.
 */

export interface ClientBuildOptions {
  /** Folder the files are written to (the site's assets folder). */
  outDir: string;
  /** @default true */
  minify?: boolean;
}

export const CLIENT_ENTRY = 'site/client.tsx';

export function createClientConfig({ outDir, minify: shouldMinify = true }: ClientBuildOptions): RollupOptions {
  return {
    input: { entry: CLIENT_ENTRY },
    preserveEntrySignatures: false,
    plugins: createClientPlugins({ minify: shouldMinify }),
    onwarn(warning, warn) {
      // React's CommonJS build and "use client" directives are known-harmless noise.
      if (warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'THIS_IS_UNDEFINED') return;
      // graphql-request's legacy classes import each other; harmless, and not ours to fix.
      if (warning.code === 'CIRCULAR_DEPENDENCY' && warning.ids?.every((id) => id.includes('node_modules'))) return;
      warn(warning);
    },
    output: {
      dir: outDir,
      format: 'es',
      entryFileNames: '[name]-[hash].js',
      chunkFileNames: '[name]-[hash].js',
      hashCharacters: 'base36',
      // React changes less often than the site: its own chunk stays cached across deploys,
      // and the size budget can tell the runtime's own code from the framework's.
      manualChunks: (id) => (/[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/.test(id) ? 'react' : undefined),
    },
  };
}

/** The browser build's plugins: the server-code guard, production React, TS/TSX, CommonJS interop, minification. */
export function createClientPlugins({ minify: shouldMinify = true }: { minify?: boolean } = {}): Plugin[] {
  return [
    forbidServerCode(),
    nativeSyncExternalStore(),
    replace({ preventAssignment: true, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
    // 'production' is named: otherwise the plugin picks development builds whenever NODE_ENV is not
    // 'production' (as under the test runner), and the same code would give another bundle and build id.
    nodeResolve({ browser: true, extensions: ['.mjs', '.js', '.ts', '.tsx', '.json'], exportConditions: ['production'] }),
    commonjs(),
    esbuild({ target: 'es2020', jsx: 'automatic', tsconfig: 'tsconfig.json' }),
    ...(shouldMinify ? [minify({ target: 'es2020', legalComments: 'none' })] : []),
  ];
}

export default createClientConfig({ outDir: 'dist/_assets' });

// --- internal ---

/**
 * wouter imports the useSyncExternalStore shim for React 16/17; React 19 has the hook built in, so the
 * shim (and its CommonJS wrapper) would only add bytes to every page's first load.
 */
function nativeSyncExternalStore(): Plugin {
  const id = '\0native-sync-external-store';
  return {
    name: 'native-sync-external-store',
    resolveId: (source) => (source.startsWith('use-sync-external-store/shim') ? id : null),
    load: (source) => (source === id ? "export { useSyncExternalStore } from 'react';" : null),
  };
}

/**
 * Fails the client build when Node-only code enters the browser graph (DESIGN.md: imports flow one
 * way). Tree-shaking is not a correctness guarantee, so the import itself is the error.
 */
function forbidServerCode(): Plugin {
  return {
    name: 'forbid-server-code',
    resolveId(source, importer) {
      const serverOnly = source.startsWith('node:') || /(^|\/)cli\//.test(source) || /\.build(\.ts)?$/.test(source) || /(^|\/)backend\//.test(source);
      if (serverOnly && importer) {
        this.error(`${importer} imports '${source}', which is build-only code and must not reach the browser. Move the import into a *.build.ts file or cli/.`);
      }
      return null;
    },
  };
}
