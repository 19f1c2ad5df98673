import { describe, expect, it } from 'vitest';
import { decodePage, encodePage, type PageRecordForState } from '../../../../../cli/build/incremental/state-format.ts';
import type { InspectedPage } from '../../../../../cli/checks/collect.ts';
import { mediaList, pageDepends } from '../../../../../cli/content/page-depends.ts';

const inspected: InspectedPage = {
  path: '/news/a',
  route: 'news-article',
  title: 'A',
  ids: '\nmain\n',
  imagesWithoutAlt: ['/media/x.jpg'],
  htmlChars: 1200,
  payloadChars: 300,
  payloadBytesOverBudget: null,
};
const links = ['/', '/news', '/about'];
const items = ['news-1', 'news-2', 'news-3'];
const media = ['https://cms.example/media/a.jpg', 'https://cms.example/media/b.jpg'];
const index = { item: (id: string) => items.indexOf(id), media: (url: string) => media.indexOf(url) };
/** A row as the state file holds it: through JSON and back. */
const stored = (row: unknown): unknown => JSON.parse(JSON.stringify(row));

describe("a saved page's row", () => {
  it('reads back as the page that was saved, its lists through the tables', () => {
    const record: PageRecordForState = {
      hash: 'h1',
      noindex: true,
      lastmod: '2026-11-01',
      bytes: 1500,
      depends: pageDepends('news/a', ['news-3', 'news-1']),
      media: mediaList([media[1]!]),
      notes: [{ feed: 1 }],
    };
    const row = stored(encodePage(inspected, record, [2, 0], index));
    expect(decodePage(row, { links, items, media })).toEqual({
      hash: 'h1',
      noindex: true,
      lastmod: '2026-11-01',
      bytes: 1500,
      inspected,
      links: ['/about', '/'],
      depends: record.depends,
      media: record.media,
      notes: [{ feed: 1 }],
    });
  });

  it('keeps no media or notes unless both were recorded, and no key without one', () => {
    const row = stored(encodePage(inspected, { hash: 'h2', noindex: false, bytes: 10, media: mediaList([media[0]!]) }, [], index));
    expect(decodePage(row, { links, items, media })).toEqual({
      hash: 'h2',
      noindex: false,
      lastmod: undefined,
      bytes: 10,
      inspected,
      links: [],
    });
  });

  it('is damaged, naming its path, when a fact is not of the type a build writes', () => {
    const row = stored(encodePage(inspected, { hash: 'h3', noindex: false, bytes: 10 }, [1], index)) as unknown[];
    expect(decodePage(row, { links: ['/'], items, media })).toEqual({ damaged: '/news/a' });
    expect(
      decodePage(
        row.map((value, i) => (i === 6 ? 7 : value)),
        { links, items, media },
      ),
    ).toEqual({ damaged: '/news/a' });
    expect(decodePage('/news/a', { links, items, media })).toEqual({ damaged: '/news/a' });
  });
});
