import { existsSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageSpill, type PackedPage } from '../../../../cli/content/packed-page.ts';
import type { PageRecord } from '../../../../cli/content/query.ts';
import { serializeJson } from '../../../../runtime/shared/serialize.ts';

/** A page as the query stage makes it: its data, and its data as the HTML-safe JSON the page and payload splice in. */
function record(path: string, data: unknown): PageRecord {
  return {
    job: { path, routeId: 'news-article', params: { slug: path.slice(6) } } as unknown as PageRecord['job'],
    data,
    json: serializeJson(data),
    lastmod: '2026-11-28',
    depends: 'news:1',
  };
}

const MiB = 1024 * 1024;
/** A page the spill file took (under its cap, every one). */
function spilled(held: PackedPage | PageRecord): PackedPage {
  if (!('offset' in held)) throw new Error(`${held.job.path} was held in memory, not spilled`);
  return held;
}
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'packed-page-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('pages held in the spill file while the client bundles', () => {
  const data = (n: number): unknown => ({
    title: `Ørsted lecture ${n} — “Licht” in 東京 \u2028 and </script><script>alert(1)</script> & more`,
    body: '<p>Rich text with <a href="/x?a=1&b=2">a link</a></p>'.repeat(n),
    items: [{ id: n, n: null, deep: { emoji: '🎻', zero: 0, no: false } }],
  });

  it('holds no data and no JSON in memory, only where the JSON is in the file', async () => {
    const file = join(dir, 'held');
    const spill = createPageSpill(file, MiB);
    const packed = [spill.pack(record('/news/a', data(1))), spill.pack(record('/news/b', data(50)))].map(spilled);
    for (const page of packed) {
      expect(page.record.data).toBeUndefined();
      expect(page.record.json).toBe('');
    }
    expect(await readFile(file, 'utf8')).toBe(serializeJson(data(1)) + serializeJson(data(50)));
    spill.remove();
  });

  it('gives back each page as it was, in any order: its JSON byte for byte, its data parsed from it, every other field kept', () => {
    const spill = createPageSpill(join(dir, 'back'), MiB);
    const originals = Array.from({ length: 20 }, (_, i) => record(`/news/${i}`, data(i)));
    const packed = originals.map((page) => spilled(spill.pack(page)));
    for (const i of [19, 0, 7, 3, 12]) {
      const back = spill.unpack(packed[i]!);
      expect(back.json).toBe(originals[i]!.json);
      expect(back.data).toEqual(data(i));
      expect({ ...back, data: undefined, json: undefined }).toEqual({ ...originals[i], data: undefined, json: undefined });
    }
    spill.remove();
  });

  it('leaves no file behind once removed, and makes none when nothing was packed', () => {
    const file = join(dir, 'gone');
    const unused = createPageSpill(join(dir, 'never'), MiB);
    unused.remove();
    expect(existsSync(join(dir, 'never'))).toBe(false);
    const spill = createPageSpill(file, MiB);
    spill.pack(record('/news/a', data(1)));
    expect(existsSync(file)).toBe(true);
    spill.remove();
    expect(existsSync(file)).toBe(false);
  });

  it('never writes through a file or a link planted where the spill file goes, and says which file is in the way', async () => {
    const target = join(dir, 'victim');
    await writeFile(target, 'keep me');
    const linked = join(dir, 'planted-link');
    await symlink(target, linked);
    const planted = join(dir, 'planted-file');
    await writeFile(planted, 'mine');
    for (const file of [linked, planted]) {
      const spill = createPageSpill(file, MiB);
      expect(() => spill.pack(record('/news/a', data(1)))).toThrow(file);
      spill.remove();
    }
    expect(await readFile(target, 'utf8')).toBe('keep me');
    expect(await readFile(planted, 'utf8')).toBe('mine');
  });

  it('spills no more than its byte cap: the pages past it stay in memory, whole, as before spilling', () => {
    const file = join(dir, 'capped');
    const page = record('/news/big', data(20));
    const bytes = Buffer.byteLength(page.json);
    const spill = createPageSpill(file, 3 * bytes + 10);
    const held = Array.from({ length: 5 }, (_, i) => spill.pack(record(`/news/${i}`, data(20))));
    expect(held.map((h) => 'offset' in h)).toEqual([true, true, true, false, false]);
    expect(statSync(file).size).toBe(3 * bytes);
    const kept = held[4]!;
    if ('offset' in kept) throw new Error('the page past the cap was spilled');
    expect(kept.json).toBe(page.json);
    expect(kept.data).toEqual(data(20));
    // Emptied, it takes pages again.
    spill.remove();
    expect(spilled(spill.pack(page)).length).toBe(bytes);
    spill.remove();
  });
});
