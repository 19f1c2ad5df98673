import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { saveBuildState } from '../../../../../cli/build/incremental/build-state.ts';
import { createPageInspector, inspectPage } from '../../../../../cli/checks/collect.ts';
import { pageDepends } from '../../../../../cli/content/page-depends.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

// The state's long lists (links, item ids, media) are written in parts of 10,000 strings, so that no
// list is ever one string in memory: these sizes cross a part's end, land on one, and stay within one.
describe('saveBuildState', () => {
  it.each([25_003, 20_002, 5])('writes %i links, with the item ids and media, as the lists they are', async (linkCount) => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'site-state-cache-'));
    const outDir = await mkdtemp(join(tmpdir(), 'site-state-out-'));
    dirs.push(cacheDir, outDir);
    const inspector = createPageInspector();
    const links = Array.from({ length: linkCount }, (_, i) => `/news/item-${i}?q=é\\${i}`);
    const pagesCount = 4;
    for (let p = 0; p < pagesCount; p++) {
      // Every page links to the navigation (the first two links); the rest are spread over the pages.
      const own = links.slice(2).filter((_, i) => i % pagesCount === p);
      const html = `<html><head><title>Page ${p}</title></head><body><a href="${links[0]}"></a><a href="${links[1]}"></a>${own.map((href) => `<a href="${href}"></a>`).join('')}</body></html>`;
      inspector.add(`/page-${p}`, 'news-article', inspectPage(html, '{}', 1_000_000));
    }
    const site = inspector.result();
    expect(new Set(site.links.keys())).toEqual(new Set(links));
    const itemIds = Array.from({ length: 12_001 }, (_, i) => `news-${i}`);
    const records = Array.from({ length: pagesCount }, (_, p) => ({
      hash: `h${p}`,
      noindex: false,
      bytes: 10,
      depends: pageDepends(`key-${p}`, p === 0 ? itemIds : itemIds.slice(p, p + 2)),
    }));
    const media = Array.from({ length: 10_000 }, (_, i) => `https://cms.example/media/${String(i).padStart(5, '0')}.jpg`);
    await saveBuildState(cacheDir, outDir, {
      buildId: 'b1',
      generator: 'g',
      timestamp: 1,
      site,
      records,
      outputs: new Map([['feed.xml', 'x']]),
      media: [...media].reverse(),
      search: null,
      feed: null,
      warnings: [],
      uses: {},
    });

    const file = (await readdir(join(cacheDir, 'builds'))).find((name) => !name.endsWith('.uses.json'));
    const saved = JSON.parse(await readFile(join(cacheDir, 'builds', file!), 'utf8')) as {
      links: string[];
      items: string[];
      media: string[];
      pages: unknown[][];
      outputs: Record<string, string>;
      warnings: unknown[];
    };
    expect(saved.links).toEqual([...site.links.keys()]);
    expect(saved.items).toEqual(itemIds);
    expect(saved.media).toEqual(media);
    expect(saved.outputs).toEqual({ 'feed.xml': 'x' });
    expect(saved.warnings).toEqual([]);
    // Each page's links, by their places in the list, are the links it has.
    for (let p = 0; p < pagesCount; p++) {
      const row = saved.pages[p]!;
      expect(row[0]).toBe(`/page-${p}`);
      const own = links.slice(2).filter((_, i) => i % pagesCount === p);
      expect((row[12] as number[]).map((i) => saved.links[i])).toEqual([links[0], links[1], ...own]);
      expect((row[14] as number[]).map((i) => saved.items[i])).toEqual(p === 0 ? itemIds : itemIds.slice(p, p + 2));
    }
  });
});
