import { escapeXml } from '../render/html.ts';

export interface SitemapEntry {
  path: string;
  lastmod?: string;
}

/** URLs one sitemap file may list (sitemaps.org): past them, sitemap.xml is an index of several files. */
export const SITEMAP_URLS = 50_000;

/**
 * The sitemap files for the given pages, in path order, each made only when the caller takes it: one
 * `sitemap.xml` when the site has at most `limit` pages (the protocol's 50,000); otherwise
 * `sitemap-1.xml`, `sitemap-2.xml`… of `limit` pages each, and `sitemap.xml` an index of them, so
 * robots.txt and crawlers find every page through the same address either way.
 */
export function* sitemapFiles(
  entries: readonly SitemapEntry[],
  baseUrl: string,
  limit = SITEMAP_URLS,
): Generator<{ file: string; content: string }> {
  if (entries.length <= limit) {
    yield { file: 'sitemap.xml', content: renderSitemap(entries, baseUrl) };
    return;
  }
  const parts: string[] = [];
  for (let start = 0; start < entries.length; start += limit) {
    const file = `sitemap-${parts.length + 1}.xml`;
    parts.push(file);
    yield { file, content: renderSitemap(entries.slice(start, start + limit), baseUrl) };
  }
  const sitemaps = parts.map((file) => `  <sitemap><loc>${escapeXml(`${baseUrl}/${file}`)}</loc></sitemap>`);
  yield {
    file: 'sitemap.xml',
    content: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${sitemaps.join('\n')}\n</sitemapindex>\n`,
  };
}

/** One sitemap file listing the given pages; lastmod is the item's updatedAt. */
export function renderSitemap(entries: readonly SitemapEntry[], baseUrl: string): string {
  const urls = entries.map((e) => {
    const lastmod =
      e.lastmod && !Number.isNaN(Date.parse(e.lastmod)) ? `<lastmod>${escapeXml(new Date(e.lastmod).toISOString())}</lastmod>` : '';
    return `  <url><loc>${escapeXml(baseUrl + (e.path === '/' ? '/' : e.path))}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt that allows everything and points to the sitemap. */
export function renderRobots(baseUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}
