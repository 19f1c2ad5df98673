import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheKeyFor } from '../../../../cli/config/cache-key.ts';
import { openSearchCache, type CachedFile } from '../../../../cli/output/search-cache.ts';

/**
 * The build cache's store of the site search's partitions (cli/output/search-cache.ts): what it gives
 * back is what was put, or nothing (never a damaged, swapped or special file, never a wait), and what
 * prune forgets. What search-index.ts does with an entry (names checked, whole partitions only) is in
 * tests/integration/search-index.test.ts.
 */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'search-cache-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const key = (c: string): string => c.repeat(43);
const files = (text: string): CachedFile[] => [
  { file: '_search/pagefind-entry.json', content: new TextEncoder().encode(`{"v":"${text}"}`) },
  { file: '_search/index/en_1.pf_index', content: new Uint8Array([0, 1, 2, 255]) },
];
const entryFile = (k: string): string => join(dir, 'search', `${k}.pagefind`);
const days = (n: number): number => n * 24 * 60 * 60 * 1000;

describe('the search cache', () => {
  it('gives back the files put under a key, byte for byte, to another build', async () => {
    await openSearchCache(dir).put(key('a'), files('one'));
    expect(await openSearchCache(dir).get(key('a'))).toEqual(files('one'));
    expect(await openSearchCache(dir).get(key('b'))).toBeNull();
  });

  it('gives nothing for an entry damaged anywhere, cut short, or copied under another key', async () => {
    await openSearchCache(dir).put(key('a'), files('one'));
    const whole = await readFile(entryFile(key('a')));
    // A byte of the header (a file's name), of the files, of the hash.
    for (const at of [12, whole.length - 40, whole.length - 1]) {
      const damaged = Buffer.from(whole);
      damaged.writeUInt8(damaged.readUInt8(at) ^ 1, at);
      await writeFile(entryFile(key('a')), damaged);
      expect(await openSearchCache(dir).get(key('a')), `byte ${at}`).toBeNull();
    }
    await writeFile(entryFile(key('a')), whole.subarray(0, whole.length - 5));
    expect(await openSearchCache(dir).get(key('a'))).toBeNull();
    await writeFile(entryFile(key('c')), whole);
    expect(await openSearchCache(dir).get(key('c'))).toBeNull();
  });

  it('gives nothing for an entry no build holding the cache key wrote, however well formed', async () => {
    await openSearchCache(dir).put(key('a'), files('one'));
    const whole = await readFile(entryFile(key('a')));
    // A cache writer changes a file and recomputes a checksum anyone can.
    const body = Buffer.from(whole.subarray(0, whole.length - 32));
    body.write('two', body.indexOf('one'));
    await writeFile(entryFile(key('a')), Buffer.concat([body, createHash('sha256').update(body).digest()]));
    expect(await openSearchCache(dir).get(key('a'))).toBeNull();
    // Written under another key: not this one's.
    await openSearchCache(dir, { signer: cacheKeyFor(dir, { SITE_CACHE_KEY: 'y'.repeat(32) }) }).put(key('b'), files('one'));
    expect(await openSearchCache(dir).get(key('b'))).toBeNull();
    expect(await openSearchCache(dir, { signer: cacheKeyFor(dir, { SITE_CACHE_KEY: 'y'.repeat(32) }) }).get(key('b'))).toEqual(
      files('one'),
    );
  });

  it('reads no symbolic link and waits on no FIFO', async () => {
    await openSearchCache(dir).put(key('a'), files('one'));
    await symlink(entryFile(key('a')), entryFile(key('b')));
    expect(await openSearchCache(dir).get(key('b'))).toBeNull();
    execFileSync('mkfifo', [entryFile(key('c'))]);
    expect(await openSearchCache(dir).get(key('c'))).toBeNull();
  });

  it('a build that cannot write it goes on', async () => {
    await writeFile(join(dir, 'search'), 'not a folder');
    const cache = openSearchCache(dir);
    await expect(cache.put(key('a'), files('one'))).resolves.toBeUndefined();
    expect(await cache.get(key('a'))).toBeNull();
    await expect(cache.prune()).resolves.toBeUndefined();
  });

  it("forgets what no build used for two weeks and a stopped build's temporary files, keeps what this build used or kept, and recent others", async () => {
    const now = Date.now();
    const old = async (k: string, age: number): Promise<void> => {
      await openSearchCache(dir).put(k, files(k));
      await utimes(entryFile(k), new Date(now - age), new Date(now - age));
    };
    await old(key('a'), days(30)); // this build uses it: kept whatever its age
    await old(key('b'), days(30)); // an update in place keeps its partition: kept
    await old(key('c'), days(30)); // nobody's: forgotten
    await old(key('d'), days(2)); // another folder's, recent: kept
    await mkdir(join(dir, 'search'), { recursive: true });
    await writeFile(join(dir, 'search', `${key('e')}.pagefind.x.tmp`), 'half');
    await utimes(join(dir, 'search', `${key('e')}.pagefind.x.tmp`), new Date(now - days(1)), new Date(now - days(1)));
    await writeFile(join(dir, 'search', `${key('f')}.pagefind.y.tmp`), 'being written');
    await writeFile(join(dir, 'search', 'notes.txt'), 'not the cache');

    const cache = openSearchCache(dir);
    expect(await cache.get(key('a'))).not.toBeNull();
    await cache.keep(key('b'));
    await cache.keep(key('g')); // kept by an update in place, not in the cache: not written (not made by this build)
    await cache.prune(now);
    expect((await readdir(join(dir, 'search'))).sort()).toEqual(
      [`${key('a')}.pagefind`, `${key('b')}.pagefind`, `${key('d')}.pagefind`, `${key('f')}.pagefind.y.tmp`, 'notes.txt'].sort(),
    );
  });

  it('past its size, forgets the oldest entries this build did not use first', async () => {
    const now = Date.now();
    const big = (k: string): CachedFile[] => [
      { file: '_search/pagefind-entry.json', content: new Uint8Array(1024 * 1024).fill(k.charCodeAt(0)) },
    ];
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) {
      await openSearchCache(dir).put(key(k), big(k));
      await utimes(entryFile(key(k)), new Date(now - days(i + 1)), new Date(now - days(i + 1)));
    }
    // a is the newest; 2.5 MiB holds two of the others besides nothing this build used.
    await openSearchCache(dir, { maxBytes: 2.5 * 1024 * 1024 }).prune(now);
    expect((await readdir(join(dir, 'search'))).sort()).toEqual([`${key('a')}.pagefind`, `${key('b')}.pagefind`]);
    // What this build uses counts first: with it, the budget is twice its size.
    const cache = openSearchCache(dir, { maxBytes: 1024 });
    await cache.put(key('e'), big('e'));
    await cache.prune(now);
    expect((await readdir(join(dir, 'search'))).sort()).toEqual([`${key('a')}.pagefind`, `${key('e')}.pagefind`]);
  });
});
