// Deletes the trash of an output folder's earlier swaps (swap.ts): the retired trees, `.{out}.trash-*`
// beside it. Plain JavaScript, so that a build can also run it as a process of its own that outlives the
// command (`node remove-trash.js <outDir>`): deleting a large tree takes seconds that nobody waits for.
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Deletes every trash tree of `outDir`; another process may be deleting the same: whatever is left, the next one removes. */
export async function removeTrash(outDir) {
  const names = await readdir(dirname(outDir)).catch(() => []);
  const trash = names.filter((n) => n.startsWith(`.${basename(outDir)}.trash-`)).map((n) => join(dirname(outDir), n));
  await Promise.all(trash.map((dir) => rm(dir, { recursive: true, force: true }).catch(() => undefined)));
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2]) await removeTrash(process.argv[2]);
