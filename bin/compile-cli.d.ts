/** See compile-cli.js. */
export function compiledCli(root?: string, cacheDir?: string): Promise<string | null>;
