import { joinTitle } from '../runtime/browser-effects.ts';
import type { PageHead } from '../runtime/routes.ts';
import type { AssetManifest } from './bundle.ts';
import { escapeHtml } from './html.ts';

export interface HeadInput {
  head: PageHead;
  siteName: string;
  /** Absolute canonical URL of the page. */
  canonical: string;
  /** Absolute site URL, for making root-relative image URLs absolute. */
  baseUrl: string;
  assets: AssetManifest;
  /** Chunks of the page's route (modulepreload). */
  pageChunks: readonly string[];
  ogType?: string;
}

/** The `<head>` contents of one page: title, description, canonical, OpenGraph, stylesheet, preloads. */
export function renderHead({ head, siteName, canonical, baseUrl, assets, pageChunks, ogType = 'website' }: HeadInput): string {
  const title = joinTitle(head.title, siteName);
  const image = head.image ? new URL(head.image, baseUrl + '/').href : null;
  const preloads = [...new Set([assets.entry, ...assets.entryImports, ...pageChunks])];
  const lines = [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    head.noindex ? '<meta name="robots" content="noindex">' : `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    `<meta property="og:type" content="${escapeHtml(ogType)}">`,
    `<meta property="og:title" content="${escapeHtml(head.title || siteName)}">`,
    `<meta property="og:description" content="${escapeHtml(head.description)}">`,
    `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    `<meta property="og:site_name" content="${escapeHtml(siteName)}">`,
    ...(image ? [`<meta property="og:image" content="${escapeHtml(image)}">`] : []),
    `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`,
    `<link rel="stylesheet" href="${escapeHtml(assets.css)}">`,
    ...preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
  ];
  return lines.join('\n    ');
}
