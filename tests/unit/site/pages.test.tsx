import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import type { RouteDefinition } from '../../../runtime/routes.ts';
import { SiteContext } from '../../../runtime/site-context.ts';
import { layouts } from '../../../site/layouts/index.ts';
import { routes as siteRoutes } from '../../../site/routes.ts';
import { routeSamples, site } from './fixtures.ts';

/** Every page rendered on the server, the way the build renders it, from sample data in its query's shape. */

const routes: readonly RouteDefinition[] = siteRoutes;

function render(node: ReactNode, path: string): string {
  return renderToString(
    <SiteContext.Provider value={site}>
      <Router ssrPath={path}>{node}</Router>
    </SiteContext.Provider>,
  );
}

async function renderRoute(route: RouteDefinition): Promise<string> {
  const sample = routeSamples[route.id];
  if (!sample) throw new Error(`no sample data for route ${route.id}`);
  const { default: Page } = await route.load();
  const Layout = layouts[route.layout ?? 'default'];
  return render(
    <Layout>
      <Page data={sample.data} params={sample.params} />
    </Layout>,
    sample.path,
  );
}

describe.each(routes.map((route) => [route.id, route] as const))('page %s', (_id, route) => {
  it('renders exactly one h1 inside the main landmark', async () => {
    const html = await renderRoute(route);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
    expect(html).toMatch(/<main id="main"[^>]*tabindex="-1"/);
  });

  it('gives every image width, height and alt text', async () => {
    const html = await renderRoute(route);
    for (const img of html.match(/<img[^>]*>/g) ?? []) {
      expect(img).toMatch(/ width="\d+"/);
      expect(img).toMatch(/ height="\d+"/);
      expect(img).toMatch(/ alt="/);
    }
  });

  it('links internally without trailing slashes and never prints an invalid date', async () => {
    const html = await renderRoute(route);
    const internal = [...html.matchAll(/href="(\/[^"#]*)"/g)].map((m) => m[1] ?? '');
    expect(internal.filter((href) => href.length > 1 && href.endsWith('/'))).toEqual([]);
    expect(html).not.toMatch(/Invalid Date|NaN|undefined/);
  });
});

describe('page content', () => {
  const html = async (id: string): Promise<string> => renderRoute(routes.find((r) => r.id === id)!);

  it('links a publication’s DOI through doi.org whatever form the editor typed', async () => {
    expect(await html('publication')).toContain('href="https://doi.org/10.1234/abc"');
  });

  it('offers the publication file with its type and a human-readable size', async () => {
    expect(await html('publication')).toMatch(/PDF<!-- -->, <!-- -->1.5 MB/);
  });

  it('plays podcast episodes in place', async () => {
    expect(await html('about-podcast')).toMatch(/<audio[^>]*controls[^>]*src="\/media\/podcast\/8.mp3"/);
  });

  it('links the long about page’s contents to its sections by hash', async () => {
    const page = await html('about-large');
    expect(page).toContain('href="#c-section-2"');
    expect(page).toContain('<section id="c-section-2"');
  });

  it('shows only artistic projects on the artistic research page', async () => {
    const page = await html('about-artistic-research');
    expect(page).toContain('Afterimages');
    expect(page).not.toContain('Not artistic');
  });

  it('splits a category’s events into upcoming and past at the backend’s next event', async () => {
    const page = await html('event-category');
    expect(page.indexOf('Upcoming')).toBeLessThan(page.indexOf('Event future'));
    expect(page.indexOf('Past events')).toBeLessThan(page.indexOf('Event past'));
  });

  it('links the news archive with plain links: /news the latest, the archive numbered from the oldest, newer and older marked', async () => {
    const first = await html('news');
    expect(first).toMatch(/<a(?=[^>]*href="\/news\/page\/1")(?=[^>]*rel="next")[^>]*>Older/);
    expect(first).toMatch(/<span class="pagination__page" aria-current="page">Latest<\/span>/);
    expect(first).toContain('Showing 1');
    const second = await html('news-page');
    expect(second).toMatch(/<a(?=[^>]*href="\/news\/page\/3")(?=[^>]*rel="prev")[^>]*>Newer/);
    expect(second).toMatch(/<a(?=[^>]*href="\/news\/page\/1")(?=[^>]*rel="next")[^>]*>Older/);
    expect(second).toMatch(/<a[^>]*href="\/news"[^>]*>Latest<\/a>/);
    expect(second).toMatch(/<span class="pagination__page" aria-current="page"><span class="visually-hidden">Page <\/span>2<\/span>/);
    // An archive page names the days it spans, not the collection's size, which would change it with every new article.
    expect(second).toMatch(/1 article, from <time/);
    expect(second).not.toContain('Showing');
  });

  it('links a newest-first list’s pages with plain links: page 1 at the list’s own path, the next and previous pages marked', async () => {
    const first = await html('publications');
    expect(first).toMatch(/<a[^>]*href="\/publications\/page\/2"[^>]*rel="next"|<a[^>]*rel="next"[^>]*href="\/publications\/page\/2"/);
  });

  it('links /events to its later pages, which continue with the past, most recent first', async () => {
    expect(await html('events')).toMatch(/href="\/events\/page\/2"[^>]*>Past events/);
    const later = await html('events-page');
    expect(later.indexOf('Upcoming')).toBeLessThan(later.indexOf('Event later'));
    expect(later.indexOf('Past events')).toBeLessThan(later.indexOf('Event past'));
  });

  it('offers an event as an .ics file and a category as a calendar to subscribe to', async () => {
    expect(await html('event')).toMatch(/href="\/events\/lectures\/talk\.ics"[^>]*>Add to calendar/);
    expect(await html('event-category')).toContain('href="/events/lectures.ics"');
  });

  it('links a publication’s authors to their entries in the people directory and offers a citation to copy', async () => {
    const page = await html('publication');
    expect(page).toContain('href="/about/people#c-person-ada-berg"');
    expect(page).toContain('Berg, A.');
    expect(page).toMatch(/<button type="button"[^>]*>Copy citation<\/button>/);
  });

  it('shows related articles under a news article', async () => {
    expect(await html('news-article')).toMatch(/Related news[\s\S]*href="\/news\/summer-school"/);
  });

  it('renders every course and the level filter on the server, so hydration sees the same markup', async () => {
    const page = await html('courses');
    expect(page).toContain('href="/courses?level=Master"');
    expect(page.match(/<article class="course"/g)).toHaveLength(2);
    expect(page).toMatch(/aria-current="true"[^>]*>All levels/);
  });

  it('formats dates in UTC with an English locale so server and browser agree', async () => {
    expect(await html('news-article')).toContain('<time dateTime="2026-03-14">14 March 2026</time>');
  });
});

describe('layouts', () => {
  it('mark the section of a singular /publication path as the current one', () => {
    const out = render(<layouts.default>page</layouts.default>, '/publication/articles/a-study');
    expect(out).toMatch(/<a (?=[^>]*href="\/publications")(?=[^>]*aria-current="page")[^>]*>Publications<\/a>/);
    expect(out.match(/aria-current="page"/g)).toHaveLength(1);
  });

  it('start with a skip link to the main content', () => {
    const out = render(<layouts.default>page</layouts.default>, '/news');
    expect(out.indexOf('href="#main"')).toBeLessThan(out.indexOf('<header'));
    expect(out).toContain('Skip to content');
  });

  it('give the home page a hero with the tagline, which other pages do not have', () => {
    expect(render(<layouts.home>page</layouts.home>, '/')).toContain('Where art meets technology</p>');
    expect(render(<layouts.default>page</layouts.default>, '/news')).not.toContain('class="hero"');
  });

  it('show the contact details in the footer', () => {
    const out = render(<layouts.default>page</layouts.default>, '/news');
    expect(out).toContain('href="mailto:info@institute.example"');
    expect(out).toContain('href="tel:+4722004100"');
  });
});

describe('detail pages without their item', () => {
  it('throw a 404 the runtime turns into the error screen', async () => {
    const route = routes.find((r) => r.id === 'news-article')!;
    const { default: Page } = await route.load();
    expect(() => render(<Page data={{ newsItem: null }} params={{ slug: 'gone' }} />, '/news/gone')).toThrow(
      expect.objectContaining({ status: 404 }),
    );
  });
});
