import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSampleContent } from '../../backend/content/sample.ts';
import { htmlFileFor } from '../../runtime/shared/paths.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';

/**
 * The build cache as an input an attacker may have written (a CI cache another job saved, a restored
 * archive): what it supplies that runs or is shown on the site (the client bundle, Pagefind's files,
 * cleaned rich text) is used only when a build holding the cache key wrote it. Each poisoning below keeps
 * every checksum the cache holds correct, as whoever can write the cache folder can; the next build must
 * ship none of it. Real builds against the embedded backend, with the key in a config folder of the test's own.
 */

const POISON = 'globalThis.__poisonedByCache=1';
const DIRTY_BODY = '<p>Fine print.</p><script>window.__dirtyBody=1</script><img src="/x.png" onerror="window.__dirtyBody=2">';

let dir: string;
let cache: string;
let env: Record<string, string>;
let article: string;
let warm: CliResult;

const build = (out: string, extra: Record<string, string> = {}): Promise<CliResult> =>
  runCli(['build', '--out', join(dir, out), '--cache-dir', cache, '--no-report', '--full'], { env: { ...env, ...extra } });
const sha256 = (bytes: Uint8Array | string): Buffer => createHash('sha256').update(bytes).digest();

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Appends POISON to every script of each cached bundle, and makes the entry's own list of sizes and hashes match, if it has one. */
async function poisonBundle(): Promise<number> {
  let poisoned = 0;
  for (const entry of await readdir(join(cache, 'bundle'))) {
    const changed = new Map<string, Buffer>();
    for (const file of await filesUnder(join(cache, 'bundle', entry, 'assets'))) {
      if (!file.endsWith('.js')) continue;
      const bytes = Buffer.concat([await readFile(file), Buffer.from(`;${POISON};`)]);
      await writeFile(file, bytes);
      changed.set(file.slice(join(cache, 'bundle', entry, 'assets').length + 1), bytes);
      poisoned++;
    }
    const sealFile = join(cache, 'bundle', entry, 'seal');
    const seal = await readFile(sealFile, 'utf8').catch(() => null);
    if (seal === null) continue;
    const [mac, body] = [
      seal.slice(0, seal.indexOf('\n')),
      JSON.parse(seal.slice(seal.indexOf('\n') + 1)) as { files: [string, number, string][] },
    ];
    for (const f of body.files) {
      const bytes = changed.get(f[0]);
      if (bytes) [f[1], f[2]] = [bytes.length, sha256(bytes).toString('base64url')];
    }
    await writeFile(sealFile, `${mac}\n${JSON.stringify(body)}`);
  }
  return poisoned;
}

/** Appends POISON to Pagefind's script in every cached search partition, with the entry's trailing hash recomputed. */
async function poisonSearch(): Promise<number> {
  let poisoned = 0;
  for (const name of await readdir(join(cache, 'search'))) {
    const file = join(cache, 'search', name);
    const entry = await readFile(file);
    const length = entry.readUInt32BE(0);
    const header = JSON.parse(entry.subarray(4, 4 + length).toString('utf8')) as { files: [string, number][] };
    let at = 4 + length;
    const parts: Buffer[] = [];
    for (const f of header.files) {
      let content = entry.subarray(at, at + f[1]);
      at += f[1];
      if (f[0].endsWith('/pagefind.js')) {
        content = Buffer.concat([content, Buffer.from(`;${POISON};`)]);
        f[1] = content.length;
        poisoned++;
      }
      parts.push(content);
    }
    const head = Buffer.from(JSON.stringify(header));
    const size = Buffer.alloc(4);
    size.writeUInt32BE(head.length);
    const body = Buffer.concat([size, head, ...parts]);
    await writeFile(file, Buffer.concat([body, sha256(body)]));
  }
  return poisoned;
}

/** Lists the dirty body's hash among the texts that clean to themselves (and drops its cleaned form). */
async function poisonRichText(): Promise<void> {
  const file = join(cache, 'rich-text.json');
  const text = await readFile(file, 'utf8');
  const saved = JSON.parse(text) as { version: string; unchanged: string[]; changed: Record<string, string>; mac?: string };
  const hash = createHash('sha256').update(DIRTY_BODY, 'utf16le').digest('base64url');
  expect(saved.changed[hash], 'the dirty body was cleaned and remembered').toBeDefined();
  delete saved.changed[hash];
  saved.unchanged.push(hash);
  await writeFile(file, JSON.stringify(saved));
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cache-trust-'));
  cache = join(dir, 'cache');
  const news = loadSampleContent().news.find((n) => n.status === 'PUBLISHED')!;
  article = `/news/${news.slug}`;
  const overrides = join(dir, 'overrides.json');
  await writeFile(overrides, JSON.stringify({ news: [{ slug: news.slug, body: DIRTY_BODY }] }));
  env = { XDG_CONFIG_HOME: join(dir, 'config'), CONTENT_OVERRIDES_FILE: overrides, SITE_CACHE_KEY: '' };
  const cold = await build('cold');
  expect(cold.code, cold.stderr).toBe(0);
  warm = await build('warm');
  expect(warm.code, warm.stderr).toBe(0);
}, 300_000);

afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the build cache', () => {
  it('serves a warm build: the bundle and the search index come from it', () => {
    expect(warm.stdout).toMatch(/^\[bundle\] \d+ route chunks \(cached\)/m);
    expect(warm.stdout).toMatch(/^\[search\] .*from the build cache/m);
  });

  it('ships no script a cache writer without the key put in the bundle or the search index, and heals', async () => {
    expect(await poisonBundle()).toBeGreaterThan(0);
    expect(await poisonSearch()).toBeGreaterThan(0);
    const after = await build('after');
    expect(after.code, after.stderr).toBe(0);
    const out = join(dir, 'after');
    const poisoned: string[] = [];
    for (const file of await filesUnder(out))
      if (/\.(js|html|json)$/.test(file) && (await readFile(file, 'utf8')).includes(POISON)) poisoned.push(file.slice(out.length));
    expect
      .soft(
        poisoned.filter((f) => f.startsWith('/_assets/')),
        "bundle files with the cache's script",
      )
      .toEqual([]);
    expect
      .soft(
        poisoned.filter((f) => f.startsWith('/_search/')),
        "search files with the cache's script",
      )
      .toEqual([]);
    expect(poisoned).toEqual([]);
    // Byte for byte what Pagefind made for the clean builds.
    expect(await readFile(join(out, '_search/pagefind.js'))).toEqual(await readFile(join(dir, 'cold', '_search/pagefind.js')));
    // The entries were made again: the next build takes them from the cache.
    const next = await build('next');
    expect(next.stdout).toMatch(/^\[bundle\] \d+ route chunks \(cached\)/m);
    expect(next.stdout).toMatch(/^\[search\] .*from the build cache/m);
  }, 240_000);

  it('shows no rich text a cache writer without the key claimed was clean', async () => {
    await poisonRichText();
    const after = await build('after-rich-text');
    expect(after.code, after.stderr).toBe(0);
    const page = await readFile(join(dir, 'after-rich-text', htmlFileFor(article)), 'utf8');
    expect(page).toContain('Fine print.');
    expect(page).not.toContain('__dirtyBody');
  }, 240_000);

  it('trusts no entry written under another key', async () => {
    const other = await build('other-key', { SITE_CACHE_KEY: 'k'.repeat(40) });
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toMatch(/^\[bundle\] \d+ route chunks in/m);
    expect(other.stdout).not.toMatch(/from the build cache/);
  }, 240_000);

  it('refuses a SITE_CACHE_KEY too short to be a secret', async () => {
    const short = await build('short-key', { SITE_CACHE_KEY: 'secret' });
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/\[InvalidOption\] Expected SITE_CACHE_KEY to be a secret of at least 32 characters/);
    expect(short.stderr).not.toContain("'secret'");
  }, 60_000);
});
