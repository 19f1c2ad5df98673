import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { escapeHtml } from './html.ts';

/**
 * The Content-Security-Policy every page carries by default (issue 16.4), derived from the build's
 * options: only the site's own scripts, styles, images and requests, widened for the public GraphQL
 * endpoint's origin (live data, preview, login; media of drafts are served from it) and the error
 * reporter's origin when they are configured, and images for an image service's. No 'unsafe-inline', no 'unsafe-eval': the boot data and
 * JSON-LD are `type="application/json"`/`application/ld+json`, which is data, not script.
 * `frame-ancestors` cannot be set by a meta tag: the CDN adds it (docs/reliability.md).
 */
export function contentSecurityPolicy({
  publicEndpoint,
  sentryDsn,
  images,
}: {
  publicEndpoint: string | null;
  sentryDsn: string | null;
  images?: { service: { url: string } | null };
}): string {
  const api = publicEndpoint ? [new URL(publicEndpoint).origin] : [];
  const reporter = sentryDsn ? [new URL(sentryDsn).origin] : [];
  // An image service (--image-service) serves the images' derivatives from its own origin.
  const imageService = images?.service ? [new URL(images.service.url).origin] : [];
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'"],
    ['style-src', "'self'"],
    ['img-src', "'self'", ...unique([...api, ...imageService])],
    ['media-src', "'self'", ...api],
    ['connect-src', "'self'", ...unique([...api, ...reporter])],
    ['object-src', "'none'"],
    ['base-uri', "'none'"],
    ['form-action', "'self'"],
  ];
  return directives.map((d) => d.join(' ')).join('; ');
}

/**
 * The policy of a route that compiles WebAssembly (RouteDetails.webAssembly: the site search, whose
 * Pagefind index is searched by WebAssembly): `script-src` also allows 'wasm-unsafe-eval', which lets a
 * page compile WebAssembly and nothing else (no `eval`, no inline script). Only such a route's pages
 * carry it, so no other page can compile WebAssembly.
 */
export function withWebAssembly(policy: string): string {
  return policy.replace(
    /(^|; )script-src ([^;]*)/,
    (_all, start: string, sources: string) => `${start}script-src ${sources} 'wasm-unsafe-eval'`,
  );
}

/** The policy as the first tag of a page's `<head>`, before anything it governs. */
export function cspMetaTag(policy: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">`;
}

/** The policy a built page carries, read back from its markup (the preview server sends it as a header too). */
export function cspOfPage(html: string): string | null {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  return match ? match[1]!.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&') : null;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** The policy of a built site, from its home page (or its 404 page); null when its pages carry none. */
export async function readSitePolicy(root: string): Promise<string | null> {
  for (const file of ['index.html', '404.html']) {
    const html = await readFile(join(root, file), 'utf8').catch(() => null);
    if (html !== null) return cspOfPage(html);
  }
  return null;
}
