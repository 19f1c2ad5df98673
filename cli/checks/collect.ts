import { detach } from '../content/detach.ts';
import { grown, PackedNumbers, PackedStrings } from '../build/incremental/packed-strings.ts';
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
  pages: InspectedPages;
  /** Link target exactly as written (entities decoded) → indexes into `pages` of the pages using it, in order. */
  links: InspectedLinks;
}

/** Every link target (entities decoded), in the order first seen, with the indexes of the pages using it, in order: LinkUsers, or a Map. */
export interface InspectedLinks extends Iterable<[string, Iterable<number>]> {
  readonly size: number;
  get(link: string): Iterable<number> | undefined;
  keys(): Iterable<string>;
  values(): Iterable<Iterable<number>>;
  /** Calls `visit` with each link's place in the order of `keys()` and each page using it, in order, without a list of them made per link. @default walks values() */
  forEachUse?(visit: (link: number, page: number) => void): void;
}

/**
 * The inspected pages in the order they were recorded. Each page's object is made when it is asked for:
 * the inspector keeps the pages' fields packed (build/incremental/packed-strings.ts), not an object per page.
 */
export interface InspectedPages extends Iterable<InspectedPage> {
  readonly length: number;
  at(index: number): InspectedPage;
  /** The page's path alone, without making its object. */
  path(index: number): string;
  /** The length of the page's HTML or of its payload alone, without making its object (the report's measure walks every page for them). */
  chars(index: number, of: 'html' | 'payload'): number;
}

/** What is read from one rendered page where it is rendered (possibly a worker thread), for the inspector. */
export interface PageInspection {
  facts: PageFacts;
  htmlChars: number;
  payloadChars: number;
  payloadBytesOverBudget: number | null;
}

/** Reads one page's facts and size; `payloadBytes` is the payload's UTF-8 size, which the renderer has already taken. */
export function inspectPage(
  html: string,
  payload: string | null,
  payloadBudget: number,
  payloadBytes = payload === null ? 0 : Buffer.byteLength(payload),
): PageInspection {
  return {
    facts: extractPageFacts(html),
    htmlChars: html.length,
    payloadChars: payload?.length ?? 0,
    payloadBytesOverBudget: payloadBytes > payloadBudget ? payloadBytes : null,
  };
}

/**
 * Collects, while the build renders, what the checks and the report need from each page: its facts
 * (title, ids, links, images without alt) and its size. Each distinct link is kept once with the
 * pages that use it, so the navigation every page repeats costs one entry, not one per page. The pages'
 * fields are kept in columns (build/incremental/packed-strings.ts): at 100,000 pages an object per page and its
 * title as a string were about 35 MB of the main heap, held to the build's end.
 */
export function createPageInspector(): {
  add(path: string, route: string, inspection: PageInspection): void;
  /** A page kept from the previous build, as that build inspected it (build-state.ts). */
  restore(page: InspectedPage, links: readonly string[]): void;
  result(): InspectedSite;
} {
  const pages = new PackedPages();
  const links = new LinkUsers();
  const addLinks = (index: number, pageLinks: readonly string[]): void => {
    for (const link of pageLinks) links.add(link, index);
  };
  return {
    restore(page, pageLinks) {
      addLinks(pages.add(page), pageLinks);
    },
    add(path, route, { facts, htmlChars, payloadChars, payloadBytesOverBudget }) {
      const index = pages.add({
        path,
        route,
        title: facts.title,
        ids: `\n${facts.ids.join('\n')}\n`,
        imagesWithoutAlt: facts.imagesWithoutAlt.map(detach),
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

/** Distinct strings the inspector shares at most (routes, the layout's ids); past them, each page keeps its own copy. */
const SHARED_STRINGS = 4096;

/** The list of a page without images missing alt text, shared by all such pages. */
const NO_IMAGES: readonly string[] = Object.freeze([]);

/**
 * The inspected pages, a column per field. A path stays the string it came as (the crawl's, which the
 * build holds for its pages anyway); routes and ids are shared strings (100,000 pages with the same layout
 * hold one string of ids, not 100,000); titles are packed; images without alt text, which few pages have,
 * are kept by page.
 */
class PackedPages implements InspectedPages {
  private readonly paths: string[] = [];
  private readonly routes = new PackedStrings(SHARED_STRINGS);
  private readonly titles = new PackedStrings();
  private readonly ids = new PackedStrings(SHARED_STRINGS);
  private readonly images = new Map<number, readonly string[]>();
  private readonly htmlChars = new PackedNumbers();
  private readonly payloadChars = new PackedNumbers();
  /** NaN for a payload within the budget. */
  private readonly overBudget = new PackedNumbers();

  get length(): number {
    return this.paths.length;
  }

  /** Adds a page; returns its index. */
  add(page: InspectedPage): number {
    const index = this.paths.push(page.path) - 1;
    this.routes.push(page.route);
    this.titles.push(page.title);
    this.ids.push(page.ids);
    if (page.imagesWithoutAlt.length > 0) this.images.set(index, page.imagesWithoutAlt);
    this.htmlChars.push(page.htmlChars);
    this.payloadChars.push(page.payloadChars);
    this.overBudget.push(page.payloadBytesOverBudget ?? Number.NaN);
    return index;
  }

  path(index: number): string {
    const path = this.paths[index];
    if (path === undefined) throw new RangeError(`page ${index} of ${this.paths.length}`);
    return path;
  }

  chars(index: number, of: 'html' | 'payload'): number {
    return (of === 'html' ? this.htmlChars : this.payloadChars).at(index);
  }

  at(index: number): InspectedPage {
    const overBudget = this.overBudget.at(index);
    return {
      path: this.path(index),
      route: this.routes.text(index),
      title: this.titles.at(index) ?? null,
      ids: this.ids.text(index),
      imagesWithoutAlt: this.images.get(index) ?? NO_IMAGES,
      htmlChars: this.htmlChars.at(index),
      payloadChars: this.payloadChars.at(index),
      payloadBytesOverBudget: Number.isNaN(overBudget) ? null : overBudget,
    };
  }

  *[Symbol.iterator](): Iterator<InspectedPage> {
    for (let i = 0; i < this.paths.length; i++) yield this.at(i);
  }
}

/**
 * Each link and the pages that use it, in order. A link is a number (its place in the order first seen);
 * its pages' indexes are kept in one pool of 4-slot cells shared by every link (three entries and the
 * next cell of the link's list), and pages that follow one another (the navigation's, which is on nearly
 * every page) take one entry per run, not one per page: an index is followed by RUN | n when the n pages
 * after it use the link too. An array per link (the way this was) grew to 17 slots at its second page: at
 * 100,000 pages, 164,000 links' arrays were 27 MB of the main heap, held to the build's end.
 */
export class LinkUsers implements InspectedLinks {
  private readonly ids = new Map<string, number>();
  /** Per link: its first and last cell, its entries, and the last page index added. */
  private heads = new Uint32Array(INITIAL_LINKS);
  private tails = new Uint32Array(INITIAL_LINKS);
  private sizes = new Uint32Array(INITIAL_LINKS);
  private lasts = new Uint32Array(INITIAL_LINKS);
  /** The cells: CELL_ENTRIES entries, then the index of the next cell (0: none; cell 0 is never used). */
  private pool = new Uint32Array(INITIAL_LINKS * CELL);
  private cells = 1;

  get size(): number {
    return this.ids.size;
  }

  /** Notes that page `index` uses `link`; a page's indexes come in increasing order. */
  add(link: string, index: number): void {
    let id = this.ids.get(link);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(detach(link), id);
      if (id === this.heads.length) this.growLinks();
      const cell = this.newCell();
      this.heads[id] = cell;
      this.tails[id] = cell;
      this.pool[cell * CELL] = index;
      this.sizes[id] = 1;
      this.lasts[id] = index;
      return;
    }
    const size = this.sizes[id]!;
    if (index === this.lasts[id]! + 1) {
      // The run the last entry ends goes on, or one starts after the last index.
      const at = this.tails[id]! * CELL + ((size - 1) % CELL_ENTRIES);
      const end = this.pool[at]!;
      this.lasts[id] = index;
      if (end >= RUN && end - RUN < RUN - 1) {
        this.pool[at] = end + 1;
        return;
      }
      this.append(id, RUN + 1);
      return;
    }
    this.lasts[id] = index;
    this.append(id, index);
  }

  get(link: string): Iterable<number> | undefined {
    const id = this.ids.get(link);
    return id === undefined ? undefined : this.users(id);
  }

  keys(): Iterable<string> {
    return this.ids.keys();
  }

  *values(): Iterable<Iterable<number>> {
    for (const id of this.ids.values()) yield this.users(id);
  }

  *[Symbol.iterator](): Iterator<[string, Iterable<number>]> {
    for (const [link, id] of this.ids) yield [link, this.users(id)];
  }

  forEachUse(visit: (link: number, page: number) => void): void {
    for (let id = 0; id < this.ids.size; id++) this.walk(id, (page) => visit(id, page));
  }

  /**
   * The pages of link `id`, in the order they came: an array, which for-of walks without an object per
   * page (a generator made one per page, about 20 MB of garbage for each pass over a 10,000-page site's
   * links, two passes per build: the checks and the saved state's links by page).
   */
  private users(id: number): number[] {
    const pages: number[] = [];
    this.walk(id, (page) => void pages.push(page));
    return pages;
  }

  /** Calls `visit` with each page of link `id`, in the order they came. */
  private walk(id: number, visit: (page: number) => void): void {
    let cell = this.heads[id]!;
    let previous = -1;
    for (let i = 0; i < this.sizes[id]!; i++) {
      if (i > 0 && i % CELL_ENTRIES === 0) cell = this.pool[cell * CELL + CELL_ENTRIES]!;
      const entry = this.pool[cell * CELL + (i % CELL_ENTRIES)]!;
      if (entry < RUN) visit((previous = entry));
      else for (const end = previous + entry - RUN; previous < end; ) visit(++previous);
    }
  }

  private append(id: number, entry: number): void {
    const size = this.sizes[id]!;
    let tail = this.tails[id]!;
    if (size % CELL_ENTRIES === 0) {
      const cell = this.newCell();
      this.pool[tail * CELL + CELL_ENTRIES] = cell;
      this.tails[id] = tail = cell;
    }
    this.pool[tail * CELL + (size % CELL_ENTRIES)] = entry;
    this.sizes[id] = size + 1;
  }

  private newCell(): number {
    if ((this.cells + 1) * CELL > this.pool.length) this.pool = grown(this.pool);
    return this.cells++;
  }

  private growLinks(): void {
    this.heads = grown(this.heads);
    this.tails = grown(this.tails);
    this.sizes = grown(this.sizes);
    this.lasts = grown(this.lasts);
  }
}

const INITIAL_LINKS = 1024;
/** Entries in a cell, and the slots of a cell (the entries and the next cell's index). */
const CELL_ENTRIES = 3;
const CELL = CELL_ENTRIES + 1;

/** Marks an entry as a run: the entry less RUN is how many pages follow the index before it. Page indexes stay below it. */
const RUN = 0x80000000;
