import { resolve } from 'node:path';
import type { RouteRule } from '../../runtime/shared/contract.ts';
import { siteFileAt } from '../serve/site-files.ts';

/** Where a link in a page points, once resolved against the page and the site's base URL. */
export type LinkTarget =
  | { kind: 'internal'; path: string; hash: string | null }
  /** Another site, or a scheme the build does not serve (mailto:, tel:, data:): not checked. */
  | { kind: 'external' };

/** How a link target was found, or why not. */
export type LinkResolution = 'page' | 'redirect' | 'file' | 'missing';

/**
 * Resolves `href` as the browser would on the page at `pagePath` of a site published at `baseUrl`:
 * root-relative and relative paths, `#anchors`, and absolute URLs on the site's own origin are
 * internal; the path is decoded and loses a trailing slash or `/index.html`.
 */
export function classifyLink(href: string, pagePath: string, baseUrl: string): LinkTarget {
  const trimmed = withoutUrlEdges(href);
  if (trimmed === '' || trimmed === '#') return { kind: 'external' };
  // Nearly every link a build checks is a plain root-relative path: no URL parsing, which would give the same.
  const plain = PLAIN_PATH.exec(trimmed);
  if (plain && !NOT_PLAIN.test(plain[1]!)) return { kind: 'internal', path: normalizePath(plain[1]!), hash: plain[2] ? plain[2] : null };
  const origin = originOf(baseUrl);
  let url: URL;
  try {
    url = new URL(trimmed, origin + pagePath);
  } catch {
    return { kind: 'internal', path: trimmed, hash: null };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) return { kind: 'external' };
  const hash = url.hash.length > 1 ? safeDecode(url.hash.slice(1)) : null;
  return { kind: 'internal', path: normalizePath(safeDecode(url.pathname)), hash };
}

/** True when a route rule redirects `path`: an exact rule, or a `/prefix/**` rule covering it. */
export function isRedirected(path: string, rules: Readonly<Record<string, RouteRule>>): boolean {
  for (const [pattern, rule] of Object.entries(rules)) {
    if (!rule.redirect) continue;
    if (pattern === path) return true;
    if (pattern.endsWith('/**') && (path === pattern.slice(0, -3) || path.startsWith(pattern.slice(0, -2)))) return true;
  }
  return false;
}

/**
 * Finds what an internal path is: a page of this build, a redirect rule, or a file the build wrote
 * (media, feeds, calendars, sitemap, public files, redirect pages). Files are looked up last, and
 * only for paths that are not pages, so a 10,000-page build asks the file system a few dozen times.
 */
export async function resolvePath(
  path: string,
  pages: { has(path: string): boolean },
  rules: Readonly<Record<string, RouteRule>>,
  fileExists: (path: string) => Promise<boolean>,
): Promise<LinkResolution> {
  if (pages.has(path)) return 'page';
  if (isRedirected(path, rules)) return 'redirect';
  return (await fileExists(path)) ? 'file' : 'missing';
}

// --- internal ---

/**
 * `href` without what a browser strips around a URL: leading and trailing C0 controls and spaces (the URL
 * standard). String.prototype.trim strips more (U+00A0, U+FEFF, other Unicode spaces), which a browser keeps
 * as part of the link: trimmed, a link that leads elsewhere in the browser would be checked as the page it
 * does not reach.
 */
function withoutUrlEdges(raw: string): string {
  // The HTML parser reads a NUL in an attribute as U+FFFD before any URL parsing sees it: never stripped.
  const href = raw.includes('\0') ? raw.replaceAll('\0', '\uFFFD') : raw;
  let start = 0;
  let end = href.length;
  while (start < end && href.charCodeAt(start) <= 0x20) start++;
  while (end > start && href.charCodeAt(end - 1) <= 0x20) end--;
  return href.slice(start, end);
}

/**
 * A root-relative path of unreserved characters, with an optional fragment of the same: what URL parsing
 * leaves as it is, neither encoded nor decoded (a test compares the two over many links); NOT_PLAIN rules
 * out what it would resolve. Group 1 the path, group 2 the fragment.
 */
const PLAIN_PATH = /^(\/[A-Za-z0-9._~/-]*)(?:#([A-Za-z0-9._~-]*))?$/;
/** What URL parsing changes in such a path: a `.` or `..` segment, or `//` (at the start, another host). */
const NOT_PLAIN = /\/\/|\/\.\.?(?:\/|$)/;

/** The origin of the site's base URL, parsed once per base URL. */
function originOf(baseUrl: string): string {
  if (lastBase?.url !== baseUrl) lastBase = { url: baseUrl, origin: new URL(baseUrl).origin };
  return lastBase.origin;
}

let lastBase: { url: string; origin: string } | null = null;

function normalizePath(path: string): string {
  const withoutIndex = path.endsWith('/index.html') ? path.slice(0, -'index.html'.length) : path;
  return withoutIndex.length > 1 ? withoutIndex.replace(/\/+$/, '') || '/' : withoutIndex || '/';
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * `fileExists` for the checks: a file the build wrote at this site path, or a folder with an index.html
 * there. Paths in `known` (URL-encoded, such as the media the build copied) are answered without the disk.
 */
export function siteFileExists(siteDir: string, known: Iterable<string> = []): (path: string) => Promise<boolean> {
  const knownPaths = new Set([...known].map(safeDecode));
  // Looked up as the preview server answers a request: a decoded `%2F` can leave `..` segments URL parsing
  // never resolved, and the path of an href URL parsing refused is the href itself; neither leaves the site.
  const root = resolve(siteDir);
  return async (path) => knownPaths.has(path) || (await siteFileAt(root, path)) !== null;
}
