import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** The node:fs calls that put bytes into a file (a rename or a link moves a file already written). */
const WRITES = [
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
];

/**
 * The modules of cli/ allowed to write with node:fs directly, and why. Every other write goes through
 * cli/output/write.ts (safePath, writeSiteFile, writeFileAtomic), which refuses a path that leads out of
 * its folder and never leaves half a file.
 */
const DIRECT_WRITERS: Record<string, string> = {
  'cli/output/write.ts': 'the safe writer itself',
  'cli/output/page-write-thread.js': "the safe writer's thread: its paths come from write.ts's safePath",
  'cli/output/lock.ts': 'the output lock: created exclusively (wx) and linked into place, never replaced',
  'cli/output/extras.ts': 'copies public/ whole into the staging folder',
  'cli/build/merge.ts': 'copies a shard file where it cannot be linked, to a path from prepareSiteFile, never over a file',
  'cli/content/media-cache.ts': 'copies a cache entry where it cannot be linked, to a path from prepareSiteFile, never over a file',
  'cli/content/images/images.ts': "fills the image cache's temporary folder, renamed into place whole",
  'cli/bundle/bundle-cache.ts': "fills the bundle cache's temporary folder, renamed into place whole",
  'cli/config/cache-key.ts': "creates the cache's key exclusively (wx) and links it into place",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(`${ROOT}/${dir}`, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
    .map((entry) => `${entry.parentPath.slice(ROOT.length).replace(/^\/+/, '')}/${entry.name}`);
}

/** The write calls a module imports from node:fs or node:fs/promises. */
function writesImported(source: string): string[] {
  const imported = [...source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'node:fs(?:\/promises)?'/g)].flatMap((m) =>
    m[1]!.split(',').map((name) => name.trim().split(/\s+as\s+/)[0]!),
  );
  return imported.filter((name) => WRITES.includes(name));
}

describe('writes under cli/', () => {
  it('go through cli/output/write.ts, but for the few modules listed with their reason', () => {
    const direct = sourceFiles('cli')
      .filter((file) => writesImported(readFileSync(`${ROOT}/${file}`, 'utf8')).length > 0)
      .sort();
    expect(direct).toEqual(Object.keys(DIRECT_WRITERS).sort());
  });

  it('are found in a named import of either module, renamed or not', () => {
    expect(writesImported("import { mkdir, writeFile as put } from 'node:fs/promises';")).toEqual(['writeFile']);
    expect(writesImported("import {\n  readFileSync,\n  createWriteStream,\n} from 'node:fs';")).toEqual(['createWriteStream']);
    expect(writesImported("import { readFile, rename } from 'node:fs/promises';")).toEqual([]);
  });
});
