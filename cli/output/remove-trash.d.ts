/** See remove-trash.js. */
export function removeTrash(outDir: string): Promise<void>;
