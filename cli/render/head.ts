import { joinTitle } from '../../runtime/browser-effects.ts';
import type { PageHead } from '../../runtime/routes.ts';
import { serializeJson } from '../../runtime/shared/serialize.ts';
import type { AssetManifest } from '../bundle/bundle.ts';
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
    ...(head.preloadImage ? [imagePreloadTag(head.preloadImage)] : []),
    ...(head.alternates ?? []).map(
      (a) =>
        `<link rel="alternate" type="${escapeHtml(a.type)}" title="${escapeHtml(a.title)}" href="${escapeHtml(new URL(a.href, baseUrl + '/').href)}">`,
    ),
    `<link rel="stylesheet" href="${escapeHtml(assets.css)}">`,
    ...preloads.map((href) => `<link rel="modulepreload" href="${escapeHtml(href)}">`),
    // serializeJson escapes `<`, so no string in the data can close the script element.
    ...(head.structuredData ?? []).map(
      (data) => `<script type="application/ld+json">${serializeJson(absoluteUrls(data, baseUrl))}</script>`,
    ),
  ];
  return lines.join('\n    ');
}

// --- internal ---

function imagePreloadTag({ href, srcset, sizes }: NonNullable<PageHead['preloadImage']>): string {
  const responsive = srcset ? ` imagesrcset="${escapeHtml(srcset)}" imagesizes="${escapeHtml(sizes ?? '100vw')}"` : '';
  return `<link rel="preload" as="image" href="${escapeHtml(href)}"${responsive} fetchpriority="high">`;
}

/** The JSON-LD keys whose root-relative values are URLs (PageHead.structuredData). */
const URL_KEYS: ReadonlySet<string> = new Set(['url', '@id', 'item', 'image', 'logo', 'contentUrl', 'mainEntityOfPage']);

/**
 * JSON-LD with root-relative URLs under URL_KEYS made absolute against the site's base URL. Copies only
 * the objects and arrays on the way to a changed value; `value` itself is left as it is.
 */
function absoluteUrls(value: unknown, baseUrl: string, key = ''): unknown {
  if (typeof value === 'string')
    return URL_KEYS.has(key) && value.startsWith('/') && !value.startsWith('//') ? new URL(value, baseUrl + '/').href : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = absoluteUrls(value[i], baseUrl, key);
      if (next !== value[i]) (copy ??= value.slice())[i] = next;
    }
    return copy ?? value;
  }
  let copy: Record<string, unknown> | null = null;
  for (const [k, v] of Object.entries(value)) {
    const next = absoluteUrls(v, baseUrl, k);
    if (next !== v) (copy ??= { ...value })[k] = next;
  }
  return copy ?? value;
}
