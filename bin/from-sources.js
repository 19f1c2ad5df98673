// Runs the CLI's TypeScript sources through tsx's loader, for when they cannot be compiled
// (compile-cli.js) or SITE_CLI_FROM_SOURCES is set: in the command (site.js) and in each render thread
// (cli/render/render-threads.ts), which does not inherit the loader.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

/**
 * Registers tsx with the project's tsconfig: tsx would look for one in the folder the command runs
 * from, and the project's says how to compile its JSX, wherever the command is run.
 */
export function registerTsx() {
  register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
}
