import { detach } from '../content/detach.ts';
import { extractPageFacts, type PageFacts } from './extract.ts';

/** What the build keeps of one rendered page, for the content checks and the build report. */
export interface InspectedPage {
  path: string;
  route: string;
  title: string | null;
  /** Every id on the page, each between newlines (ids cannot contain whitespace): see hasId. */
  ids: string;
  imagesWithoutAlt: readonly string[];
  /** Length of the HTML in UTF-16 code units: a cheap stand-in for its size, to rank pages by. */
  htmlChars: number;
  /** Length of the payload in UTF-16 code units; 0 for a page without one. */
  payloadChars: number;
  /** The payload's exact size in bytes when it is over the budget, else null. */
  payloadBytesOverBudget: number | null;
}

/** Every page of a build, and every link target with the pages that link to it. */
export interface InspectedSite {
  pages: readonly InspectedPage[];
  /** Link target exactly as written (entities decoded) → indexes into `pages` of the pages using it, in order. */
  links: ReadonlyMap<string, Iterable<number>>;
}

/** What is read from one rendered page where it is rendered (possibly a worker thread), for the inspector. */
export interface PageInspection {
  facts: PageFacts;
  htmlChars: number;
  payloadChars: number;
  payloadBytesOverBudget: number | null;
}

/** Reads one page's facts and size; `payloadBytes` is the payload's UTF-8 size, which the renderer has already taken. */
export function inspectPage(html: string, payload: string | null, payloadBudget: number, payloadBytes = payload === null ? 0 : Buffer.byteLength(payload)): PageInspection {
  return { facts: extractPageFacts(html), htmlChars: html.length, payloadChars: payload?.length ?? 0, payloadBytesOverBudget: payloadBytes > payloadBudget ? payloadBytes : null };
}

/**
 * Collects, while the build renders, what the checks and the report need from each page: its facts
 * (title, ids, links, images without alt) and its size. Each distinct link is kept once with the
 * pages that use it, so the navigation every page repeats costs one entry, not one per page.
 */
export function createPageInspector(): {
  add(path: string, route: string, inspection: PageInspection): void;
  /** A page kept from the previous build, as that build inspected it (build-state.ts). */
  restore(page: InspectedPage, links: readonly string[]): void;
  result(): InspectedSite;
} {
  const pages: InspectedPage[] = [];
  const links = new Map<string, number[] | PageIndexes>();
  // Most pages have the same ids (the layout's) and the same route ids: one string each, not one per page.
  const shared = createInterner(SHARED_STRINGS);
  const addLinks = (index: number, pageLinks: readonly string[]): void => {
    for (const link of pageLinks) {
      const users = links.get(link);
      if (!users) links.set(detach(link), [index]);
      else if (!Array.isArray(users)) users.push(index);
      else if (users.push(index) === LARGE_FROM) links.set(link, new PageIndexes(users));
    }
  };
  return {
    restore(page, pageLinks) {
      pages.push({ ...page, route: shared(page.route), ids: shared(page.ids), imagesWithoutAlt: imagesOrNone(page.imagesWithoutAlt) });
      addLinks(pages.length - 1, pageLinks);
    },
    add(path, route, { facts, htmlChars, payloadChars, payloadBytesOverBudget }) {
      const index = pages.length;
      pages.push({
        path,
        route: shared(route),
        title: facts.title === null ? null : detach(facts.title),
        ids: shared(`\n${facts.ids.join('\n')}\n`),
        imagesWithoutAlt: imagesOrNone(facts.imagesWithoutAlt.map(detach)),
        htmlChars,
        payloadChars,
        payloadBytesOverBudget,
      });
      addLinks(index, facts.links);
    },
    result: () => ({ pages, links }),
  };
}

/** True when the page has an element with this id. */
export function hasId(page: InspectedPage, id: string): boolean {
  return !/\s/.test(id) && page.ids.includes(`\n${id}\n`);
}

// --- internal ---

/** Distinct strings the inspector shares at most; past them, each page keeps its own copy. */
const SHARED_STRINGS = 4096;

/** The list of a page without images missing alt text, shared by all such pages. */
const NO_IMAGES: readonly string[] = Object.freeze([]);

function imagesOrNone(images: readonly string[]): readonly string[] {
  return images.length === 0 ? NO_IMAGES : images;
}

/**
 * One detached copy (detach.ts) per distinct value, for the first `limit` values: 100,000 pages with the
 * same layout then hold one string of ids instead of 100,000 (about 25 MB), and a route id that came from
 * a render thread (a copy of its own) is the same string again.
 */
function createInterner(limit: number): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    const found = known.get(text);
    if (found !== undefined) return found;
    const copy = detach(text);
    if (known.size < limit) known.set(copy, copy);
    return copy;
  };
}

/**
 * The pages of a link used by many, in a typed array (4 bytes an entry, grown by doubling). Most links
 * are on one page or a few, and stay a small array; the navigation every page repeats has every page's
 * index, and as a JavaScript array (8 bytes a number, more while it grows) those lists were 30 MB of a
 * 50,000-page build. Pages that follow one another (the navigation's, which is on nearly every page)
 * take one entry per run, not one per page: an index is followed by RUN | n when the n pages after it
 * use the link too. As 4 bytes a page, the navigation's lists were 9.4 MB of a 100,000-page build.
 */
class PageIndexes {
  private list: Uint32Array;
  private size: number;
  private last: number;

  constructor(from: readonly number[]) {
    this.list = new Uint32Array(from.length * 2);
    this.size = 0;
    this.last = -1;
    for (const index of from) this.push(index);
  }

  push(index: number): void {
    if (index === this.last + 1 && this.size > 0) {
      this.last = index;
      const end = this.list[this.size - 1]!;
      // The run the last entry ends goes on, or one starts after the last index.
      if (end >= RUN && end - RUN < RUN - 1) this.list[this.size - 1] = end + 1;
      else this.append(RUN + 1);
      return;
    }
    this.last = index;
    this.append(index);
  }

  /** The indexes so far, in the order they came. */
  *[Symbol.iterator](): Iterator<number> {
    let previous = -1;
    for (let i = 0; i < this.size; i++) {
      const entry = this.list[i]!;
      if (entry < RUN) yield (previous = entry);
      else for (const end = previous + entry - RUN; previous < end; ) yield ++previous;
    }
  }

  private append(entry: number): void {
    if (this.size === this.list.length) {
      const grown = new Uint32Array(this.list.length * 2);
      grown.set(this.list);
      this.list = grown;
    }
    this.list[this.size++] = entry;
  }
}

/** Marks an entry of PageIndexes as a run: the entry less RUN is how many pages follow the index before it. Page indexes stay below it. */
const RUN = 0x80000000;

/** Pages using a link from which its indexes move to a typed array. */
const LARGE_FROM = 64;
