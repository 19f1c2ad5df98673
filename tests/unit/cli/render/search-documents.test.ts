import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../cli/config/config.ts';
import { partitionCount, partitionOf } from '../../../../cli/output/search-index.ts';
import {
  compareSearchedPages,
  mainContent,
  searchDocuments,
  searchEntries,
  searchRoutesOf,
  usesMainContent,
  withoutExcluded,
} from '../../../../cli/render/search-documents.ts';
import { routeData } from '../../../../site/routes.build.ts';

const page = (main: string): string =>
  `<!doctype html><html><body><header><nav>Menu</nav></header><main id="main" class="site-main" tabindex="-1">${main}</main><footer>Footer</footer></body></html>`;

describe("a page's documents for the site search index", () => {
  it("are the inside of the page's <main> for an entry without text, with its metadata and filters outside the indexed body", () => {
    const [doc] = searchDocuments(
      { path: '/news/open-day', entries: [{ section: 'news', title: 'Open day', date: '2026-03-14', image: '/media/a.jpg' }] },
      page('<h1>Open day</h1><p>Come in.</p>'),
      'en',
    );
    expect(doc!.url).toBe('/news/open-day');
    expect(doc!.html).toBe(
      '<html lang="en"><body>' +
        '<div data-pagefind-meta="title">Open day</div><div data-pagefind-meta="date">2026-03-14</div><div data-pagefind-meta="image">/media/a.jpg</div>' +
        '<div data-pagefind-filter="section">news</div><div data-pagefind-filter="year">2026</div>' +
        '<div data-pagefind-body><h1>Open day</h1><p>Come in.</p></div></body></html>',
    );
  });

  it("are the entry's own text, escaped, for an item of a list, leading to its anchor on the page or to its own path", () => {
    const docs = searchDocuments(
      {
        path: '/about/people',
        entries: [
          { section: 'people', title: 'Ada <Lovelace>', url: '#c-person-ada', text: 'Professor & "composer".' },
          { section: 'documents', title: 'Report', url: '/media/report.pdf', text: 'Annual.', year: '2025' },
        ],
      },
      '',
      'en',
    );
    expect(docs.map((d) => d.url)).toEqual(['/about/people#c-person-ada', '/media/report.pdf']);
    expect(docs[0]!.html).toContain('<div data-pagefind-meta="title">Ada &lt;Lovelace&gt;</div>');
    expect(docs[0]!.html).toContain(
      '<div data-pagefind-body><h1>Ada &lt;Lovelace&gt;</h1><p>Professor &amp; &quot;composer&quot;.</p></div>',
    );
    expect(docs[0]!.html).not.toContain('data-pagefind-filter="year"');
    expect(docs[1]!.html).toContain('<div data-pagefind-filter="year">2025</div>');
  });

  it("need the page's HTML only when an entry has no text of its own", () => {
    expect(usesMainContent([{ section: 'people', title: 'A', text: 'B' }])).toBe(false);
    expect(
      usesMainContent([
        { section: 'about', title: 'A' },
        { section: 'people', title: 'B', text: 'C' },
      ]),
    ).toBe(true);
  });

  it("take the layout's <main> whole, and nothing without one", () => {
    expect(mainContent(page('<article><main-ish>x</main-ish></article>'))).toBe('<article><main-ish>x</main-ish></article>');
    expect(mainContent('<html><body><p>no main</p></body></html>')).toBe('');
  });

  it('are indexed in route order, then path order, whatever order the pages were rendered in', () => {
    const pages = [
      { route: 3, path: '/news/b' },
      { route: 1, path: '/z' },
      { route: 3, path: '/news/a' },
    ];
    expect([...pages].sort(compareSearchedPages)).toEqual([pages[1], pages[2], pages[0]]);
  });
});

describe("the site's searched routes (site/routes.build.ts)", () => {
  it('are the item pages, the about pages and the directories, and no list, pagination, home or login page', () => {
    expect([...searchRoutesOf(routeData).keys()].sort()).toEqual(
      [
        'news-article',
        'event',
        'publication',
        'research-project',
        'about',
        'about-people',
        'about-contact',
        'about-podcast',
        'about-large',
        'about-artistic-research',
        'courses',
        'courses-page',
        'documents',
        'documents-page',
      ].sort(),
    );
  });

  it('give a route with no item none, and always a list', () => {
    const news = searchRoutesOf(routeData).get('news-article')!;
    expect(searchEntries(news, { newsItem: null, related: { nodes: [] } }, { slug: 'x' }, {})).toEqual([]);
  });
});

describe('the search option', () => {
  it('is on by default; search: false in site.config.ts turns it off, and the flag wins over the file', () => {
    expect(resolveConfig({}, {}, '/work', {}).search).toBe(true);
    expect(resolveConfig({}, {}, '/work', { search: false }).search).toBe(false);
    expect(resolveConfig({ search: false }, {}, '/work', {}).search).toBe(false);
    expect(resolveConfig({ search: true }, {}, '/work', { search: false }).search).toBe(true);
  });
});

describe('what the index leaves out of a page', () => {
  const exclude = ['nav', '.related', 'aside.note', 'main > .odd'];
  it('drops the elements a tag, a class or both name, with everything inside them, and keeps the rest byte for byte', () => {
    const html =
      '<h1>Title</h1><nav class="trail"><a href="/">Home</a></nav><p>Body<br/>text<img src="/media/a.png" alt=""></p><section class="box related" aria-labelledby="r"><h2 id="r">Related</h2><section><a href="/news/b">B</a></section></section><aside class="note">n</aside><aside>kept</aside><p class="relatedness">kept too</p>';
    expect(withoutExcluded(html, exclude)).toBe(
      '<h1>Title</h1><p>Body<br/>text<img src="/media/a.png" alt=""></p><aside>kept</aside><p class="relatedness">kept too</p>',
    );
  });

  it('leaves a selector it does not apply (a child combinator) to Pagefind, and the page as it is when nothing applies', () => {
    expect(withoutExcluded('<div class="odd">x</div>', exclude)).toBe('<div class="odd">x</div>');
    expect(withoutExcluded('<p>x</p>', [])).toBe('<p>x</p>');
  });

  it("makes a page's documents the same whatever its related items' titles: a neighbour's edit does not change them", () => {
    const page = (related: string) =>
      `<html><body><main><h1>A</h1><p>Text</p><section class="related"><a>${related}</a></section></main></body></html>`;
    const entry = { path: '/news/a', entries: [{ section: 'news', title: 'A' }] };
    expect(searchDocuments(entry, page('Old title'), 'en', ['.related'])).toEqual(
      searchDocuments(entry, page('New title'), 'en', ['.related']),
    );
    expect(searchDocuments(entry, page('Old title'), 'en', [])).not.toEqual(searchDocuments(entry, page('New title'), 'en', []));
  });
});

describe('the partitions of a large index', () => {
  it('are one under the partition size, and one more for each partition size past it', () => {
    expect(partitionCount(0, 2000)).toBe(1);
    expect(partitionCount(2000, 2000)).toBe(1);
    expect(partitionCount(2001, 2000)).toBe(2);
    expect(partitionCount(10_075, 2000)).toBe(6);
  });

  it('place a page by its path alone, the same on every run, and spread the pages evenly', () => {
    const paths = Array.from({ length: 10_000 }, (_, i) => `/news/article-${i}`);
    const counts = [0, 0, 0, 0, 0];
    for (const path of paths) counts[partitionOf(path, 5)]!++;
    for (const count of counts) expect(count).toBeGreaterThan(1800);
    expect(paths.map((p) => partitionOf(p, 5))).toEqual(paths.map((p) => partitionOf(p, 5)));
    expect(partitionOf('/news/a', 1)).toBe(0);
    expect(partitionOf('/news/article-1', 5)).toBe(partitionOf('/news/article-1', 5));
  });
});
