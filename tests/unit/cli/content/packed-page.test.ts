import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPageSpill } from '../../../../cli/content/packed-page.ts';
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
    const spill = createPageSpill(file);
    const packed = [spill.pack(record('/news/a', data(1))), spill.pack(record('/news/b', data(50)))];
    for (const page of packed) {
      expect(page.record.data).toBeUndefined();
      expect(page.record.json).toBe('');
    }
    expect(await readFile(file, 'utf8')).toBe(serializeJson(data(1)) + serializeJson(data(50)));
    spill.remove();
  });

  it('gives back each page as it was, in any order: its JSON byte for byte, its data parsed from it, every other field kept', () => {
    const spill = createPageSpill(join(dir, 'back'));
    const originals = Array.from({ length: 20 }, (_, i) => record(`/news/${i}`, data(i)));
    const packed = originals.map((page) => spill.pack(page));
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
    const unused = createPageSpill(join(dir, 'never'));
    unused.remove();
    expect(existsSync(join(dir, 'never'))).toBe(false);
    const spill = createPageSpill(file);
    spill.pack(record('/news/a', data(1)));
    expect(existsSync(file)).toBe(true);
    spill.remove();
    expect(existsSync(file)).toBe(false);
  });
});
