import { describe, expect, it } from 'vitest';
import type { AssetManifest } from '../../../cli/bundle/bundle.ts';
import { renderHead } from '../../../cli/render/head.ts';
import type { PageHead, RouteDefinition } from '../../../runtime/routes.ts';
import { routes as siteRoutes } from '../../../site/routes.ts';
import { newsItem, publication, routeSamples, site } from './fixtures.ts';

/** What search engines read in each page's head: schema.org JSON-LD and the feeds, built from the page data. */

const routes: readonly RouteDefinition[] = siteRoutes;
const headOf = (id: string, data?: unknown): PageHead => {
  const route = routes.find((r) => r.id === id)!;
  const sample = routeSamples[id]!;
  return route.head(data ?? sample.data, sample.params, site);
};
const ld = (head: PageHead, type: string): Record<string, unknown> => {
  const found = head.structuredData?.find((d) => d['@type'] === type);
  if (!found) throw new Error(`no ${type} in ${JSON.stringify(head.structuredData)}`);
  return found;
};

describe('structured data', () => {
  it('describes the institute as an Organization on the home page', () => {
    expect(ld(headOf('home'), 'Organization')).toMatchObject({
      '@context': 'https://schema.org',
      name: 'Northlight Institute',
      url: '/',
      email: 'info@institute.example',
      address: { addressLocality: 'Harbourside' },
    });
  });

  it('describes a news article as a NewsArticle with its dates, image and publisher', () => {
    expect(ld(headOf('news-article'), 'NewsArticle')).toMatchObject({
      headline: 'Open day',
      url: '/news/open-day',
      datePublished: '2026-03-14',
      dateModified: newsItem.updatedAt,
      image: ['/media/sample.svg'],
      publisher: { '@type': 'Organization', name: 'Northlight Institute' },
    });
  });

  it('describes an event as an Event with its start, end and place', () => {
    expect(ld(headOf('event'), 'Event')).toMatchObject({
      name: 'Event talk',
      // In the institute's zone (Europe/Oslo, UTC+1 in November), with the offset.
      startDate: '2026-11-24T19:30:00+01:00',
      endDate: '2026-11-24T21:30:00+01:00',
      location: { '@type': 'Place', name: 'Auditorium', address: { '@type': 'PostalAddress', streetAddress: 'Glassworks Quay 14' } },
      offers: { url: 'https://tickets.example/e' },
    });
  });

  it('describes a publication as a ScholarlyArticle whose authors point at the people directory', () => {
    expect(ld(headOf('publication'), 'ScholarlyArticle')).toMatchObject({
      headline: publication.title,
      datePublished: '2025',
      author: [{ '@type': 'Person', name: 'Ada Berg', url: '/about/people#c-person-ada-berg' }, { name: 'Bo Lind' }],
      sameAs: 'https://doi.org/10.1234/abc',
    });
  });

  it('lists the courses of the course list as Course items', () => {
    const list = ld(headOf('courses'), 'ItemList') as { itemListElement: { item: Record<string, unknown> }[] };
    expect(list.itemListElement.map((e) => e.item)).toEqual([
      expect.objectContaining({
        '@type': 'Course',
        courseCode: 'NLI-B110',
        educationalLevel: 'Bachelor',
        numberOfCredits: 10,
        provider: expect.objectContaining({ '@type': 'Organization' }),
      }),
      expect.objectContaining({ courseCode: 'NLI-M210', educationalLevel: 'Master' }),
    ]);
  });

  it.each(routes.filter((r) => !['home', 'login', 'search'].includes(r.id)).map((r) => [r.id] as const))(
    'gives %s a BreadcrumbList that starts at home',
    (id) => {
      const trail = ld(headOf(id), 'BreadcrumbList') as { itemListElement: { position: number; name: string; item?: string }[] };
      expect(trail.itemListElement[0]).toEqual({ '@type': 'ListItem', position: 1, name: 'Home', item: '/' });
      expect(trail.itemListElement.at(-1)?.item).toBeUndefined();
    },
  );

  it('names the page of a later list page in its title and trail', () => {
    const head = headOf('news-page');
    expect(head.title).toBe('News · Page 2');
    expect((ld(head, 'BreadcrumbList') as { itemListElement: { name: string }[] }).itemListElement.map((e) => e.name)).toEqual([
      'Home',
      'News',
      'Page 2',
    ]);
  });

  it('links the news and events feeds from the pages that list them', () => {
    expect(headOf('news').alternates?.map((a) => a.href)).toEqual(['/feeds/news.xml']);
    expect(headOf('event-category').alternates?.map((a) => a.href)).toEqual(['/feeds/events.xml', '/events/lectures.ics']);
    expect(headOf('home').alternates?.map((a) => a.type)).toEqual(['application/rss+xml', 'application/rss+xml']);
  });
});

describe('the rendered head', () => {
  const assets: AssetManifest = {
    entry: '/_assets/entry.js',
    entryImports: [],
    css: '/_assets/site.css',
    pageChunks: {},
    hash: 'h',
  } as AssetManifest;
  const render = (head: PageHead): string =>
    renderHead({
      head,
      siteName: 'Northlight Institute',
      canonical: 'https://cdn.example/news/x',
      baseUrl: 'https://cdn.example',
      assets,
      pageChunks: [],
    });

  it('writes JSON-LD that no CMS string can break out of, with URLs made absolute against the base URL', () => {
    const html = render({
      title: 't',
      description: 'd',
      structuredData: [
        {
          '@type': 'NewsArticle',
          headline: '</script><script>alert(1)</script>',
          url: '/news/x',
          image: ['/media/a.svg'],
          sameAs: 'https://doi.org/1',
        },
      ],
    });
    const script = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(script).not.toContain('<');
    expect(JSON.parse(script)).toEqual({
      '@type': 'NewsArticle',
      headline: '</script><script>alert(1)</script>',
      url: 'https://cdn.example/news/x',
      image: ['https://cdn.example/media/a.svg'],
      sameAs: 'https://doi.org/1',
    });
  });

  it('links feeds as alternates at their absolute address', () => {
    expect(
      render({
        title: 't',
        description: 'd',
        alternates: [{ href: '/feeds/news.xml', type: 'application/rss+xml', title: 'News & more' }],
      }),
    ).toContain('<link rel="alternate" type="application/rss+xml" title="News &amp; more" href="https://cdn.example/feeds/news.xml">');
  });
});
