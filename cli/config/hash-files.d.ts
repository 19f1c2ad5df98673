/** See hash-files.js. */
export function hashFiles(root: string, dirs: readonly string[], files: readonly string[]): Promise<string>;
