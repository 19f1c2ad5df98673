import type { RouteRule } from '../../runtime/shared/contract.ts';
import { formatBytes } from '../terminal/format.ts';
import { hasId, type InspectedPage, type InspectedSite } from './collect.ts';
import { classifyLink, resolvePath, type LinkResolution, type LinkTarget } from './links.ts';
import { compareText } from '../../runtime/shared/compare.ts';

/** The checks, by the name reports and warnings use. */
export type CheckName = 'link' | 'anchor' | 'image-alt' | 'title' | 'payload-budget';

/** One problem on one page. A warning by default; a failure under --strict. */
export interface ContentWarning {
  check: CheckName;
  /** The page the problem is on. */
  page: string;
  route: string;
  /** What is wrong, naming the link, image, title or size. */
  message: string;
  /** What to do about it. */
  fix: string;
}

/** What the checks need besides the pages. */
export interface CheckContext {
  /** The URL the site is published at: absolute links to it are internal. */
  baseUrl: string;
  /** Route rules: a link to a redirected path resolves. */
  routeRules: Readonly<Record<string, RouteRule>>;
  /** True when the build wrote a file (or a folder with index.html) at this site path. */
  fileExists(path: string): Promise<boolean>;
  /** Largest payload in bytes without a warning (the inspector measured the payloads over it). */
  payloadBudget: number;
}

const FIX = {
  link: 'Correct or remove the link in the content backend (or in site/ when it is on every page of a route).',
  anchor: 'Link to an id the target page has, or drop the #… part of the link.',
  'image-alt': 'Give the image alt text in the content backend (an empty alt="" only for a purely decorative image).',
  title: "Give each page its own title: the item's title in the content backend, or the route's head() in site/routes.ts.",
  'payload-budget': 'Paginate the list or ask the query for fewer fields; raise --payload-budget if the size is intended.',
} as const satisfies Record<CheckName, string>;

/** Whether `name` is one of the checks' names (a warning read back from a build state must be). */
export function isCheckName(name: unknown): name is CheckName {
  return typeof name === 'string' && Object.hasOwn(FIX, name);
}

/**
 * Runs every content check over the inspected pages: internal links and images resolve to a page,
 * a redirect or a file; `#anchors` exist as ids on their page; images have alt text; no two pages
 * share a title; payloads stay within the budget. Warnings come sorted by page.
 */
export async function runContentChecks(site: InspectedSite, ctx: CheckContext): Promise<ContentWarning[]> {
  const warnings: ContentWarning[] = [];
  const warn = (page: InspectedPage, check: CheckName, message: string): void =>
    void warnings.push({ check, page: page.path, route: page.route, message, fix: FIX[check] });
  // A page's index by its path; also the set of the site's paths (at 100,000 pages a second set of them was 4 MB more at the build's end).
  const byPath = new Map<string, number>();
  for (let i = 0; i < site.pages.length; i++) byPath.set(site.pages.path(i), i);
  // What a path that is not a page resolves to, once per path. A page's path is found in byPath instead:
  // remembering every page a link names (nearly all of them) was the checks' largest allocation, about
  // 35 MB at 100,000 pages, where the build's memory peaked.
  const resolved = new Map<string, Promise<LinkResolution>>();
  const problemOf = async (href: string, target: LinkTarget): Promise<{ check: CheckName; message: string } | null> => {
    if (target.kind === 'external') return null;
    let resolution: LinkResolution | Promise<LinkResolution> | undefined = byPath.has(target.path) ? 'page' : resolved.get(target.path);
    if (!resolution) resolved.set(target.path, (resolution = resolvePath(target.path, byPath, ctx.routeRules, ctx.fileExists)));
    switch (await resolution) {
      case 'missing':
        return { check: 'link', message: `links to ${href}, which is not a page, a redirect or a file of this build` };
      case 'page':
        if (target.hash === null || hasId(site.pages.at(byPath.get(target.path)!), target.hash)) return null;
        return { check: 'anchor', message: `links to ${href}, but ${target.path} has no element with id "${target.hash}"` };
      default:
        return null;
    }
  };

  for (const href of site.links.keys()) {
    // Most links (navigation, root-relative paths) mean the same on every page: resolve them once.
    const pageIndependent = !href.startsWith('#') && (href.startsWith('/') || ABSOLUTE.test(href));
    const shared = pageIndependent ? await problemOf(href, classifyLink(href, '/', ctx.baseUrl)) : null;
    // Its pages are asked for only when they are walked: nearly every link resolves, and they would be made for nothing.
    if (pageIndependent && shared === null) continue;
    for (const index of site.links.get(href)!) {
      const problem = pageIndependent ? shared : await problemOf(href, classifyLink(href, site.pages.path(index), ctx.baseUrl));
      if (problem) warn(site.pages.at(index), problem.check, problem.message);
    }
  }

  // Pages by a hash of their title: a title on one page (nearly all of them) maps to the page's index, a
  // list only from the second. Keyed by the titles themselves, the map held every title as a string
  // again at the build's end, where its memory peaks (about 20 MB at 100,000 pages).
  const byHash = new Map<number, number | number[]>();
  let index = 0;
  for (const page of site.pages) {
    for (const src of page.imagesWithoutAlt) warn(page, 'image-alt', `shows the image ${src} without alt text`);
    if (page.payloadBytesOverBudget !== null)
      warn(
        page,
        'payload-budget',
        `its _payload.json is ${formatBytes(page.payloadBytesOverBudget)}, over the budget of ${formatBytes(ctx.payloadBudget)}`,
      );
    const title = titleOf(page);
    if (title === '') warn(page, 'title', 'has no <title>');
    else {
      const hash = textHash(title);
      const same = byHash.get(hash);
      if (same === undefined) byHash.set(hash, index);
      else if (Array.isArray(same)) same.push(index);
      else byHash.set(hash, [same, index]);
    }
    index++;
  }
  for (const indexes of byHash.values()) {
    if (!Array.isArray(indexes)) continue;
    // The pages whose titles share a hash, by their titles: the same title, or (rarely) another that hashes alike.
    const byTitle = new Map<string, InspectedPage[]>();
    for (const i of indexes) {
      const page = site.pages.at(i);
      const title = titleOf(page);
      const same = byTitle.get(title);
      if (same) same.push(page);
      else byTitle.set(title, [page]);
    }
    for (const [title, pages] of byTitle) {
      if (pages.length < 2) continue;
      for (const page of pages) {
        const others = pages.filter((p) => p !== page);
        const named =
          others
            .slice(0, 3)
            .map((p) => p.path)
            .join(', ') + (others.length > 3 ? ` and ${others.length - 3} more` : '');
        warn(page, 'title', `shares its title "${title}" with ${named}`);
      }
    }
  }
  return warnings.sort((a, b) => compareText(a.page, b.page));
}

// --- internal ---

/**
 * An href with a scheme that resolves the same on every page. `https:other` (a special scheme without
 * `//` or a backslash after it) is the exception: the URL standard resolves it against the page when the page
 * has that scheme, as `other` would be.
 */
const ABSOLUTE = /^(?!https?:(?![/\\]))[a-z][a-z0-9+.-]*:/i;

/** The title the checks compare: trimmed, '' for none. */
function titleOf(page: InspectedPage): string {
  return page.title?.trim() ?? '';
}

/** A 31-bit hash of a text (FNV-1a over its UTF-16 code units): equal texts, equal hashes. */
function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 1;
}
