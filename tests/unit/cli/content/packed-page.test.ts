import { describe, expect, it } from 'vitest';
import { packPage, unpackPage } from '../../../../cli/content/packed-page.ts';
import type { PageRecord } from '../../../../cli/content/query.ts';
import { serializeJson } from '../../../../runtime/shared/serialize.ts';

/** A page as the query stage makes it: its data, and its data as the HTML-safe JSON the page and payload splice in. */
function record(data: unknown): PageRecord {
  return { job: { path: '/news/a', routeId: 'news-article', params: { slug: 'a' } } as PageRecord['job'], data, json: serializeJson(data), lastmod: '2026-11-28', depends: 'news:1' };
}

describe('a page held packed while the client bundles', () => {
  const data = {
    title: 'Ørsted lecture — “Licht” in 東京 \u2028 and </script><script>alert(1)</script> & more',
    body: '<p>Rich text with <a href="/x?a=1&b=2">a link</a></p>',
    items: [{ id: 1, n: null, deep: { emoji: '🎻', zero: 0, no: false } }],
  };

  it('holds the JSON as UTF-8 bytes alone: no data, no string', () => {
    const packed = packPage(record(data));
    expect(packed.record.data).toBeUndefined();
    expect(packed.record.json).toBe('');
    expect(Buffer.isBuffer(packed.bytes)).toBe(true);
    expect(packed.bytes.toString()).toBe(serializeJson(data));
  });

  it('gives back the same page: its JSON byte for byte, its data parsed from it, every other field kept', () => {
    const original = record(data);
    const back = unpackPage(packPage(original));
    expect(back.json).toBe(original.json);
    expect(back.data).toEqual(data);
    expect(serializeJson(back.data)).toBe(original.json);
    expect({ ...back, data: undefined, json: undefined }).toEqual({ ...original, data: undefined, json: undefined });
  });
});
