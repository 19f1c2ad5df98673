/** See compile-cli.js. */
export function compiledCli(root?: string, cacheDir?: string): Promise<string | null>;
/** See compile-cli.js. */
export function hashFiles(root: string, dirs: readonly string[], files: readonly string[]): Promise<string>;
