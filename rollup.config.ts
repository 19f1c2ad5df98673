import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin, RollupOptions } from 'rollup';
import type * as Swc from '@swc/core';
import { transform } from 'esbuild';
import esbuild from 'rollup-plugin-esbuild';

/**
 * The client build: site/client.tsx plus the runtime, as one entry and one lazily loaded chunk per
 * route (every page is a dynamic import), content-hashed and minified. cli/bundle/bundle.ts runs it through
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
    // Building GraphQL documents has no side effects: pages that import a constant from a query module
    // must not carry that module's query text into the browser.
    treeshake: { manualPureFunctions: ['defineFragment', 'composeDocument'] },
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
      manualChunks: (id) => (REACT.test(id) ? 'react' : undefined),
    },
  };
}

/**
 * The browser build's plugins: the server-code guard, production React, TS/TSX, CommonJS interop, minification.
 * The bundle ships no source maps, so no plugin makes one: each would be held per module while rollup
 * builds the graph (about 20 MB of a cold build's bundle thread).
 */
export function createClientPlugins({ minify: shouldMinify = true }: { minify?: boolean } = {}): Plugin[] {
  return [
    forbidServerCode(),
    unusedSentryPackages(),
    graphqlSubset(),
    sentryConventionNames(),
    pageLocalCopies(),
    replace({ preventAssignment: true, sourceMap: false, values: { 'process.env.NODE_ENV': JSON.stringify('production') } }),
    // 'production' is named: otherwise the plugin picks development builds whenever NODE_ENV is not
    // 'production' (as under the test runner), and the same code would give another bundle and build id.
    nodeResolve({ browser: true, extensions: ['.mjs', '.js', '.ts', '.tsx', '.json'], exportConditions: ['production'] }),
    commonjs({ sourceMap: false }),
    esbuild({ target: 'es2020', jsx: 'automatic', tsconfig: 'tsconfig.json', sourceMap: false }),
    ...(shouldMinify ? [minifyChunks()] : []),
  ];
}

export default createClientConfig({ outDir: 'dist/_assets' });

// --- internal ---

const REACT = /[\\/]node_modules[\\/](react|react-dom|scheduler)[\\/]/;
const PAGE = /[\\/]site[\\/]pages[\\/][^/\\]+\.tsx?$/;

/**
 * Minifies every chunk with esbuild (milliseconds). The chunks every page loads first, the entry and
 * React's, then get a mangler alone, which names variables by how often they are used and so compresses
 * better: React's chunk 68.05 kB gzipped against esbuild's 68.98 (terser's full compression: 68.28). The
 * mangler is SWC's, a port of terser's: 68.05 kB against terser's mangler's 68.11, in 57 ms against
 * 407 (terser was most of a cold bundle's minifying).
 */
function minifyChunks(): Plugin {
  let swc: Promise<typeof Swc> | undefined;
  return {
    name: 'minify-chunks',
    async renderChunk(code, chunk) {
      const minified = (await transform(code, { minify: true, target: 'es2020', legalComments: 'none', format: 'esm' })).code;
      if (!chunk.isEntry && chunk.name !== 'react') return minified;
      const { minify } = await (swc ??= loadSwc());
      return (await minify(minified, { module: true, ecma: 2020, compress: false, mangle: true, format: { comments: false } })).code;
    },
  };
}

/**
 * @swc/core, loaded when a chunk is first mangled (a bundle from the build cache never needs it). It is
 * native code, one package per platform: when this machine's is missing, the error says so, not only
 * "Failed to load native binding".
 */
async function loadSwc(): Promise<typeof Swc> {
  try {
    return await import('@swc/core');
  } catch (cause) {
    const platform = `${process.platform}-${process.arch}`;
    throw new Error(
      `@swc/core, which mangles the client's entry and React's chunk, could not load its native build for ${platform} (${(cause as Error).message}). Run npm ci again, with optional dependencies; @swc/core has a build for Linux, macOS and Windows on x64 and arm64.`,
      { cause },
    );
  }
}

/** Paths of build-only code: the CLI, the backend, the site's `*.build.ts` files and its site/build/ folder. */
const BUILD_ONLY = [/(^|[\\/])cli[\\/]/, /(^|[\\/])backend[\\/]/, /\.build(\.ts)?$/, /(^|[\\/])site[\\/]build[\\/]/];

/**
 * Fails the client build when Node-only code enters the browser graph (docs/architecture.md, import
 * rules). Tree-shaking is not a correctness guarantee, so the import itself is the error.
 */
function forbidServerCode(): Plugin {
  return {
    name: 'forbid-server-code',
    resolveId(source, importer) {
      // Judged on the path the import resolves to: a relative import of site/build/items.ts from site/pages is that file.
      const target = importer && source.startsWith('.') ? resolve(dirname(importer), source) : source;
      const serverOnly = source.startsWith('node:') || BUILD_ONLY.some((pattern) => pattern.test(target));
      if (serverOnly && importer) {
        this.error(
          `${importer} imports '${source}', which is build-only code and must not reach the browser. Move the import into a *.build.ts file or cli/.`,
        );
      }
      return null;
    },
  };
}

/** Packages @sentry/browser re-exports that the runtime does not use (runtime/sentry.ts). */
const UNUSED_SENTRY = /^@sentry\/(replay|replay-canvas|feedback)$/;
const UNUSED_PREFIX = '\0unused:';

/**
 * Leaves out the Sentry packages the runtime does not use. @sentry/browser re-exports session replay and
 * the feedback widget, about 530 modules that tree-shaking drops from the bundle but rollup still reads
 * and parses, a second of every client build. Each is replaced by an empty module; should the runtime ever
 * use one of them, the build fails and says which, rather than ship it as undefined.
 */
function unusedSentryPackages(): Plugin {
  return {
    name: 'unused-sentry-packages',
    resolveId(source, importer) {
      return UNUSED_SENTRY.test(source) && importer && /[\\/]node_modules[\\/]@sentry[\\/]browser[\\/]/.test(importer)
        ? UNUSED_PREFIX + source
        : null;
    },
    load(id) {
      return id.startsWith(UNUSED_PREFIX) ? { code: 'export default {};', syntheticNamedExports: true, moduleSideEffects: false } : null;
    },
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        const used = file.type === 'chunk' ? file.moduleIds.find((id) => id.startsWith(UNUSED_PREFIX)) : undefined;
        if (used)
          this.error(
            `The client uses ${used.slice(UNUSED_PREFIX.length)} (through @sentry/browser), which rollup.config.ts leaves out of the bundle: remove it from UNUSED_SENTRY.`,
          );
      }
    },
  };
}

/** What graphql-request takes from graphql in the browser (analyzeDocument.js and lib/graphql.js of its legacy client). */
const GRAPHQL_SUBSET: Record<string, string> = {
  parse: 'graphql/language/parser.mjs',
  print: 'graphql/language/printer.mjs',
  Kind: 'graphql/language/kinds.mjs',
};
const GRAPHQL_SUBSET_ID = '\0graphql (the subset rollup.config.ts lists in GRAPHQL_SUBSET)';

/**
 * Gives graphql-request the three things it takes from graphql, from their own modules. graphql's index
 * re-exports the whole library (129 modules, 772 KiB: validation, execution, schema building), which
 * tree-shaking drops from the bundle but rollup still reads, parses and analyses, about a tenth of a cold
 * client build. Should graphql-request ever import another name, the build fails on it ("... is not
 * exported by \0graphql"): add it to GRAPHQL_SUBSET.
 */
function graphqlSubset(): Plugin {
  let importer: string | undefined;
  return {
    name: 'graphql-subset',
    async resolveId(source, from, options) {
      if (source === 'graphql' && from && /[\\/]node_modules[\\/]graphql-request[\\/]/.test(from)) {
        importer = from;
        return GRAPHQL_SUBSET_ID;
      }
      // The subset's own imports resolve as graphql-request's would.
      if (from === GRAPHQL_SUBSET_ID) return this.resolve(source, importer, { ...options, skipSelf: true });
      return null;
    },
    load(id) {
      if (id !== GRAPHQL_SUBSET_ID) return null;
      return {
        code: Object.entries(GRAPHQL_SUBSET)
          .map(([name, module]) => `export { ${name} } from '${module}';`)
          .join('\n'),
        moduleSideEffects: false,
      };
    },
  };
}

/** @sentry/conventions' modules of names, with each module's metadata tables beside them. */
const SENTRY_CONVENTIONS = /[\\/]node_modules[\\/]@sentry[\\/]conventions[\\/]dist[\\/](attributes|op)\.mjs$/;

/**
 * Reads @sentry/conventions' attribute and operation names as the constants they are. Its attributes
 * module is 527 KiB, a fifth of all the code a cold client build parses: 991 names, each a string, beside
 * two tables of every attribute's metadata that tree-shaking drops but rollup holds as syntax while it
 * builds the graph. Sentry imports only names; the module given to rollup exports each string export as
 * it is (the values Node reads from the module itself) and leaves the tables out, so should Sentry ever
 * import one, the build fails on it ("... is not exported by ...").
 */
function sentryConventionNames(): Plugin {
  return {
    name: 'sentry-convention-names',
    async load(id) {
      if (!SENTRY_CONVENTIONS.test(id)) return null;
      const names = Object.entries((await import(pathToFileURL(id).href)) as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      );
      return {
        code: names.map(([name, value]) => `export const ${name} = ${JSON.stringify(value)};`).join('\n'),
        moduleSideEffects: false,
      };
    },
  };
}

/** Site modules a page may take its own copy of: components, formatting and data helpers, query constants. */
const PAGE_LOCAL = /[\\/]site[\\/](components|data|format|queries)[\\/][^/\\]+\.tsx?$/;
/** `card~home.tsx`: the home page's copy of `card.tsx`, beside it so its own relative imports resolve alike. */
const COPY = /~([a-z0-9-]+)(\.tsx?)$/;

/**
 * Gives every page its own copy of the site modules it imports, so each route is one chunk: a page's first
 * load is the entry, React and that chunk. Shared chunks would hold the same code once, but a page would load
 * a dozen of them (or one with every page's components), and each file is compressed on its own, with its own
 * headers. The cost is the same component in several route chunks, which the browser fetches again for each
 * route visited; runtime code is never copied, so there is still one navigation store, one context each.
 */
function pageLocalCopies(): Plugin {
  return {
    name: 'page-local-copies',
    async resolveId(source, importer, options) {
      if (!importer || !source.startsWith('.')) return null;
      const owner = COPY.exec(importer)?.[1] ?? (PAGE.test(importer) ? basename(importer, extname(importer)) : null);
      if (!owner) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.external || !PAGE_LOCAL.test(resolved.id)) return null;
      const ext = extname(resolved.id);
      return join(dirname(resolved.id), `${basename(resolved.id, ext)}~${owner}${ext}`);
    },
    load(id) {
      const copy = COPY.exec(id);
      return copy ? readFile(id.slice(0, copy.index) + copy[2], 'utf8') : null;
    },
  };
}
