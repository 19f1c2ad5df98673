import type { InspectedPages } from '../../checks/collect.ts';
import type { SitemapEntry } from '../../output/sitemap.ts';
import type { PageRecordForState, PageRecordList } from './build-state.ts';
import { PackedNumbers, PackedStrings } from './packed-strings.ts';

/**
 * What the build records of each page it wrote, for the next build's state and the sitemap, in the order
 * the pages were done (the inspector's): a column per field (packed-strings.ts) rather than an object per
 * page. At 100,000 pages the records' objects and strings were about 35 MB of the main heap, held from
 * the page's end to the build's, and the sitemap's entries beside them 9 MB more.
 */
export class PageRecords implements PageRecordList {
  private readonly hashes = new PackedStrings();
  /** 1 when the page is noindex, else 0. */
  private readonly noindex = new PackedNumbers('uint32');
  private readonly lastmods = new PackedStrings();
  private readonly bytes = new PackedNumbers();
  private readonly depends = new PackedStrings();
  private readonly media = new PackedStrings();
  /** Each page's notes as JSON (the state saves them as JSON): most pages have none, and share one string. */
  private readonly notes = new PackedStrings(NOTES_SHARED);

  get length(): number {
    return this.hashes.length;
  }

  push(record: PageRecordForState): void {
    this.hashes.push(record.hash);
    this.noindex.push(record.noindex ? 1 : 0);
    this.lastmods.push(record.lastmod);
    this.bytes.push(record.bytes);
    this.depends.push(record.depends);
    this.media.push(record.media);
    this.notes.push(record.notes === undefined ? undefined : JSON.stringify(record.notes));
  }

  at(index: number): PageRecordForState {
    const notes = this.notes.at(index);
    return {
      hash: this.hashes.text(index),
      noindex: this.noindex.at(index) === 1,
      lastmod: this.lastmods.at(index) ?? undefined,
      bytes: this.bytes.at(index),
      depends: this.depends.at(index) ?? undefined,
      media: this.media.at(index) ?? undefined,
      notes: typeof notes === 'string' ? (JSON.parse(notes) as unknown[]) : undefined,
    };
  }

  /** The sitemap's entries: every page but the noindex ones, in this order; each page's path is the inspector's at the same index. */
  *sitemap(pages: Pick<InspectedPages, 'path'>): Iterable<SitemapEntry> {
    for (let i = 0; i < this.length; i++) {
      if (this.noindex.at(i) === 1) continue;
      const lastmod = this.lastmods.at(i);
      yield lastmod === undefined || lastmod === null ? { path: pages.path(i) } : { path: pages.path(i), lastmod };
    }
  }
}

/**
 * Every page's path and its route's place in the route table, in the order the crawl found them (the
 * build meta lists them by route and path): two columns, not an object a page.
 */
export class BuiltPaths implements Iterable<{ path: string; route: number }> {
  private readonly paths: string[] = [];
  private readonly routes = new PackedNumbers('uint32');

  get length(): number {
    return this.paths.length;
  }

  push(path: string, route: number): void {
    this.paths.push(path);
    this.routes.push(route);
  }

  *[Symbol.iterator](): Iterator<{ path: string; route: number }> {
    for (let i = 0; i < this.paths.length; i++) yield { path: this.paths[i]!, route: this.routes.at(i) };
  }
}

// --- internal ---

/** Distinct notes kept once: `[]`, which most pages have, and the first few others. */
const NOTES_SHARED = 16;
