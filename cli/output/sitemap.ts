import { escapeXml } from '../render/html.ts';

export interface SitemapEntry {
  path: string;
  lastmod?: string;
}

/** sitemap.xml for the given pages; lastmod is the item's updatedAt. */
export function renderSitemap(entries: readonly SitemapEntry[], baseUrl: string): string {
  const urls = entries.map((e) => {
    const lastmod = e.lastmod && !Number.isNaN(Date.parse(e.lastmod)) ? `<lastmod>${escapeXml(new Date(e.lastmod).toISOString())}</lastmod>` : '';
    return `  <url><loc>${escapeXml(baseUrl + (e.path === '/' ? '/' : e.path))}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt that allows everything and points to the sitemap. */
export function renderRobots(baseUrl: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${baseUrl}/sitemap.xml\n`;
}
