import type { ReactElement, ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createSharedMarkupCache } from '../../../../cli/render/shared-markup-cache.ts';
import { SharedMarkup } from '../../../../runtime/shared-markup.ts';

/** A page: a shared header keyed by its section, the page's own text, a shared footer. */
function Page({ section, text, renders }: { section: string; text: string; renders: string[] }): ReactElement {
  const Counted = ({ name, children }: { name: string; children: ReactNode }): ReactNode => {
    renders.push(name);
    return children;
  };
  return (
    <div className="site">
      <SharedMarkup cacheKey={`header ${section}`}>
        <Counted name="header">
          <header>
            <a href="/news" aria-current={section === 'news' ? 'page' : undefined}>
              News
            </a>
            <a href="/events" aria-current={section === 'events' ? 'page' : undefined}>
              Events
            </a>
          </header>
        </Counted>
      </SharedMarkup>
      <main>
        <h1>{text}</h1>
      </main>
      <SharedMarkup cacheKey="footer">
        <Counted name="footer">
          <footer>
            <p>
              Northlight {'–'} {text.length > 0 ? 'open' : 'closed'} since {2001}
            </p>
          </footer>
        </Counted>
      </SharedMarkup>
    </div>
  );
}

const pages = [
  { path: '/news/a', section: 'news', text: 'First “article”' },
  { path: '/news/b', section: 'news', text: 'Second' },
  { path: '/events/c', section: 'events', text: 'An event' },
  { path: '/news/d', section: 'news', text: 'Third & last' },
];

describe('shared markup in a build', () => {
  it('gives every page the bytes a full render gives, rendering each key once after its first page', () => {
    const cache = createSharedMarkupCache({ checkEvery: 0, checkFirst: 0 });
    const renders: string[] = [];
    for (const page of pages) {
      const plain = renderToString(<Page {...page} renders={[]} />);
      const before = renders.length;
      const html = cache.render(page.path, () => renderToString(<Page {...page} renders={renders} />));
      expect(html).toBe(plain);
      expect(html).not.toContain('site-shared-markup');
      const rendered = renders.slice(before);
      // Only the first page with a key renders its part (a few times: in place, then to take its markup
      // and check that it splices back); every later page gets it from the cache.
      if (page.path === '/news/a') expect(new Set(rendered)).toEqual(new Set(['header', 'footer']));
      if (page.path === '/events/c') expect(new Set(rendered)).toEqual(new Set(['header']));
      if (page.path === '/news/b' || page.path === '/news/d') expect(rendered).toEqual([]);
    }
  });

  it('renders in full, every time, markup that does not splice back into the same bytes', () => {
    // Text beside text: React puts a comment between them, which the shared part alone does not have.
    const TextBeside = ({ n }: { n: number }): ReactElement => (
      <p>
        Page {n}
        <SharedMarkup cacheKey="text">shared text</SharedMarkup>
      </p>
    );
    // A title is hoisted out of where it is rendered.
    const Hoisting = ({ n }: { n: number }): ReactElement => (
      <div>
        <SharedMarkup cacheKey="hoisting">
          <title>Shared title</title>
          <span>shared</span>
        </SharedMarkup>
        <p>{n}</p>
      </div>
    );
    const cache = createSharedMarkupCache({ checkEvery: 1 });
    for (let n = 0; n < 3; n++) {
      expect(cache.render(`/t/${n}`, () => renderToString(<TextBeside n={n} />))).toBe(renderToString(<TextBeside n={n} />));
      expect(cache.render(`/h/${n}`, () => renderToString(<Hoisting n={n} />))).toBe(renderToString(<Hoisting n={n} />));
    }
  });

  it('fails, naming the key and the page its markup came from, when a key leaves out what the markup depends on', () => {
    // The header's key does not name the section, so the events page would get the news header.
    // A footer with a right key is on the same pages: the error names only the header.
    const Header = ({ section }: { section: string }): ReactElement => (
      <div>
        <SharedMarkup cacheKey="header">
          <nav>{section}</nav>
        </SharedMarkup>
        <SharedMarkup cacheKey="footer">
          <footer>Northlight</footer>
        </SharedMarkup>
      </div>
    );
    const cache = createSharedMarkupCache({ checkEvery: 1 });
    expect(cache.render('/news/a', () => renderToString(<Header section="news" />))).toBe(
      '<div><nav>news</nav><footer>Northlight</footer></div>',
    );
    expect(cache.render('/news/b', () => renderToString(<Header section="news" />))).toBe(
      '<div><nav>news</nav><footer>Northlight</footer></div>',
    );
    expect(() => cache.render('/events/c', () => renderToString(<Header section="events" />))).toThrow(
      /^SharedMarkup 'header' \(markup from \/news\/a\) gave \/events\/c other markup than rendering it there does: its cacheKey must name everything its content depends on/,
    );
  });

  it('compares the first pages that get a key from the cache with a full render, whatever their paths', () => {
    const Header = ({ section }: { section: string }): ReactElement => (
      <SharedMarkup cacheKey="header">
        <nav>{section}</nav>
      </SharedMarkup>
    );
    const cache = createSharedMarkupCache({ checkEvery: 0, checkFirst: 2 });
    cache.render('/news/a', () => renderToString(<Header section="news" />));
    cache.render('/news/b', () => renderToString(<Header section="news" />));
    expect(() => cache.render('/events/c', () => renderToString(<Header section="events" />))).toThrow(/^SharedMarkup 'header'/);
    // Past the first two, only the sample by path is compared (none here): the cost stays per key, not per page.
    let renders = 0;
    const Counted = (): ReactElement => {
      renders++;
      return <nav>news</nav>;
    };
    const late = createSharedMarkupCache({ checkEvery: 0, checkFirst: 2 });
    const page = (): string =>
      renderToString(
        <SharedMarkup cacheKey="counted">
          <Counted />
        </SharedMarkup>,
      );
    late.render('/news/0', page);
    const learning = renders;
    late.render('/news/1', page);
    late.render('/news/2', page);
    expect(renders).toBe(learning + 2);
    for (let n = 3; n < 10; n++) expect(late.render(`/news/${n}`, page)).toBe('<nav>news</nav>');
    expect(renders).toBe(learning + 2);

    // With two keys on every page, each key's first two reuses are counted on the same pages.
    renders = 0;
    const two = createSharedMarkupCache({ checkEvery: 0, checkFirst: 2 });
    const both = (): string =>
      renderToString(
        <div>
          <SharedMarkup cacheKey="first">
            <b>first</b>
          </SharedMarkup>
          <SharedMarkup cacheKey="second">
            <Counted />
          </SharedMarkup>
        </div>,
      );
    two.render('/news/0', both);
    const learningBoth = renders;
    for (let n = 1; n < 10; n++) two.render(`/news/${n}`, both);
    expect(renders).toBe(learningBoth + 2);
  });

  it('splices only its own placeholders, never look-alikes in the content', () => {
    const fake = '<site-shared-markup data-n="0" data-nonce="000000000000"></site-shared-markup>';
    const WithFake = (): ReactElement => (
      <div>
        <SharedMarkup cacheKey="part">
          <b>part</b>
        </SharedMarkup>
        <div dangerouslySetInnerHTML={{ __html: fake }} />
      </div>
    );
    const cache = createSharedMarkupCache({ checkEvery: 0, checkFirst: 0 });
    cache.render('/a', () => renderToString(<WithFake />));
    expect(cache.render('/b', () => renderToString(<WithFake />))).toBe(`<div><b>part</b><div>${fake}</div></div>`);
  });

  it('is just its children outside a build (in the browser, in the dev server)', () => {
    expect(
      renderToString(
        <SharedMarkup cacheKey="x">
          <i>as it is</i>
        </SharedMarkup>,
      ),
    ).toBe('<i>as it is</i>');
  });
});
