import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * How a worker thread runs a module of the CLI. A worker does not inherit tsx's loader: when the CLI
 * runs compiled (bin/compile-cli.js), the module's compiled entry is beside the compiled code; when it
 * runs from its sources, the worker gets a bootstrap that registers tsx as the command did, then imports
 * the module's source. Pass the result to `new Worker(script, { eval })`.
 *
 * @param compiledName the module's entry in bin/compile-cli.js (`render-thread`)
 * @param source the module's source file as a URL (render-threads.ts gives its sibling render-thread.ts)
 */
export function workerModule(compiledName: string, source: URL): { script: string | URL; eval: boolean } {
  const compiled = compiledDir();
  if (compiled) return { script: pathToFileURL(join(compiled, `${compiledName}.js`)), eval: false };
  const tsx = new URL('../../bin/from-sources.js', import.meta.url).href;
  return {
    script: `import(${JSON.stringify(tsx)}).then((m) => { m.registerTsx(); return import(${JSON.stringify(source.href)}); });`,
    eval: true,
  };
}

// --- internal ---

/**
 * The folder of the compiled CLI when this module runs compiled, else null. Compiled, every module keeps
 * its source's `import.meta.url` (bin/compile-cli.js), but `import.meta.filename` is the compiled file,
 * and the compiled entries are beside it.
 */
function compiledDir(): string | null {
  const file = import.meta.filename;
  return file && file.endsWith('.js') ? dirname(file) : null;
}
