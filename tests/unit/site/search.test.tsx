import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { Router } from 'wouter';
import { searchEntries, searchRoutesOf } from '../../../cli/render/search-documents.ts';
import type { RouteDefinition } from '../../../runtime/routes.ts';
import type { SearchEntry } from '../../../runtime/shared/route-data.ts';
import { SiteContext } from '../../../runtime/site-context.ts';
import { SearchResult } from '../../../site/components/search-result.tsx';
import { excerptParts } from '../../../site/data/search-excerpt.ts';
import { pagefindFilters, searchHref, searchQueryFrom } from '../../../site/data/search-query.ts';
import { SEARCH_SECTIONS } from '../../../site/data/search-sections.ts';
import { layouts } from '../../../site/layouts/index.ts';
import { routeData } from '../../../site/routes.build.ts';
import { routes as siteRoutes } from '../../../site/routes.ts';
import { routeSamples, site } from './fixtures.ts';

const routes: readonly RouteDefinition[] = siteRoutes;
const searched = searchRoutesOf(routeData);

async function renderSample(id: string): Promise<string> {
  const route = routes.find((r) => r.id === id)!;
  const sample = routeSamples[id]!;
  const { default: Page } = await route.load();
  const Layout = layouts[route.layout ?? 'default'];
  return renderToString(
    <SiteContext.Provider value={site}>
      <Router ssrPath={sample.path}>
        <Layout>
          <Page data={sample.data} params={sample.params} />
        </Layout>
      </Router>
    </SiteContext.Provider>,
  );
}

function entriesOf(id: string): readonly SearchEntry[] {
  const sample = routeSamples[id]!;
  return searchEntries(searched.get(id)!, sample.data, sample.params, site);
}

describe("the site search's entries", () => {
  it.each([...searched.keys()].map((id) => [id] as const))(
    'of %s name a known section and a title, and lead to an element that is on the page',
    async (id) => {
      const html = await renderSample(id);
      const entries = entriesOf(id);
      expect(entries.length).toBeGreaterThan(0);
      for (const entry of entries) {
        expect(SEARCH_SECTIONS.map((s) => s.id as string)).toContain(entry.section);
        expect(entry.title).not.toBe('');
        if (entry.url?.startsWith('#')) expect(html, `${id} ${entry.url}`).toContain(`id="${entry.url.slice(1)}"`);
        if (entry.date) expect(entry.year ?? entry.date.slice(0, 4)).toMatch(/^\d{4}$/);
      }
    },
  );

  it('give each person of the people page an entry that leads to their card, found by name, role and department', () => {
    const person = entriesOf('about-people').find((e) => e.section === 'people')!;
    expect(person).toMatchObject({ title: 'Ada Berg', url: '/about/people#c-person-ada-berg', text: 'Researcher. Research.' });
  });

  it("date an event in the year it happens in the institute's time zone", () => {
    const event = searched.get('event')!;
    const sample = routeSamples.event!;
    const newYear = { event: { ...(sample.data as { event: object }).event, startsAt: '2026-12-31T23:30:00Z' } };
    expect(
      searchEntries(event, newYear, sample.params, { ...site, site: { ...(site.site as object), timeZone: 'Europe/Oslo' } })[0]!.year,
    ).toBe('2027');
    expect(searchEntries(event, newYear, sample.params, { ...site, site: { ...(site.site as object), timeZone: 'UTC' } })[0]!.year).toBe(
      '2026',
    );
  });
});

describe('an excerpt from the index', () => {
  it('splits into text and marked words, with the escaped angle brackets put back as text', () => {
    expect(excerptParts('The <mark>violin</mark> and &lt;script&gt; and <mark>violins</mark>.')).toEqual([
      { text: 'The ', mark: false },
      { text: 'violin', mark: true },
      { text: ' and <script> and ', mark: false },
      { text: 'violins', mark: true },
      { text: '.', mark: false },
    ]);
  });

  it('is rendered as text: no markup it holds reaches the page', () => {
    const html = renderToString(
      <SiteContext.Provider value={site}>
        <SearchResult
          result={{
            url: '/news/a',
            excerpt: 'x &lt;img src=x onerror=alert(1)&gt; <mark>y</mark><b>z</b>',
            meta: { title: '<i>T</i>', date: '2026-03-14' },
            filters: { section: ['news'] },
          }}
        />
      </SiteContext.Provider>,
    );
    expect(html).not.toMatch(/<img|<b>|<i>/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('<mark>y</mark>');
    expect(html).toContain('&lt;b&gt;z&lt;/b&gt;');
    expect(html).toContain('>News<');
    expect(html).toContain('<time dateTime="2026-03-14">14 March 2026</time>');
  });
});

describe('the search in the address', () => {
  it('reads q, section and year, trimmed, and ignores the rest', () => {
    expect(searchQueryFrom('?q=%20violin%20&section=events&year=2026&x=1')).toEqual({ q: 'violin', section: 'events', year: '2026' });
    expect(searchQueryFrom('')).toEqual({ q: '', section: null, year: null });
    expect(searchQueryFrom('section=')).toEqual({ q: '', section: null, year: null });
  });

  it('writes only what is set, q first, and reads back the same', () => {
    const query = { q: 'sound & light', section: 'news', year: null };
    expect(searchHref(query)).toBe('/search?q=sound+%26+light&section=news');
    expect(searchQueryFrom(searchHref(query).split('?')[1]!)).toEqual(query);
    expect(searchHref({ q: '', section: null, year: null })).toBe('/search');
    expect(pagefindFilters({ q: 'x', section: null, year: '2025' })).toEqual({ year: '2025' });
  });
});
