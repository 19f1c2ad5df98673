import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildState } from '../../../../cli/build/incremental/build-state.ts';
import { filesToRemove } from '../../../../cli/build/incremental/incremental.ts';
import { writeExtras } from '../../../../cli/output/extras.ts';
import { renderSitemap, SITEMAP_URLS, sitemapFiles } from '../../../../cli/output/sitemap.ts';

/** No output here reads a page's data. */
const noPages = { data: () => Promise.reject(new Error('no page data in this test')) };

const BASE = 'https://institute.example';
const entries = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ path: `/p/${String(i).padStart(3, '0')}`, lastmod: '2026-01-02T03:04:05Z' }));
const locs = (xml: string): string[] => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!);

describe('the sitemap', () => {
  it('is one sitemap.xml up to the protocol limit of 50,000 pages', () => {
    expect(SITEMAP_URLS).toBe(50_000);
    const files = [...sitemapFiles(entries(3), BASE, 3)];
    expect(files.map((f) => f.file)).toEqual(['sitemap.xml']);
    expect(files[0]!.content).toBe(renderSitemap(entries(3), BASE));
    expect(locs(files[0]!.content)).toEqual([`${BASE}/p/000`, `${BASE}/p/001`, `${BASE}/p/002`]);
  });

  it('past the limit, is split into files of at most the limit, and sitemap.xml indexes them in order', () => {
    const files = [...sitemapFiles(entries(7), BASE, 3)];
    expect(files.map((f) => f.file)).toEqual(['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);
    expect(files.slice(0, 3).map((f) => locs(f.content).length)).toEqual([3, 3, 1]);
    // Every page once, in order, across the parts.
    expect(files.slice(0, 3).flatMap((f) => locs(f.content))).toEqual(entries(7).map((e) => BASE + e.path));
    const index = files[3]!.content;
    expect(index).toContain('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(locs(index)).toEqual([`${BASE}/sitemap-1.xml`, `${BASE}/sitemap-2.xml`, `${BASE}/sitemap-3.xml`]);
  });

  describe('as the build writes it', () => {
    let dir: string;
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });
    const write = async (siteDir: string, pages: number, previousOutputs?: ReadonlyMap<string, string>) =>
      writeExtras({
        siteDir,
        publicDir: join(dir, 'public'),
        baseUrl: BASE,
        routeRules: {},
        csp: null,
        notFoundHtml: '<p>404</p>',
        sitemap: entries(pages).reverse(),
        collectors: [],
        pages: noPages,
        previousOutputs,
        sitemapUrls: 3,
      });

    it('writes every part, records each as an output, and a smaller site no longer keeps the part it lost', async () => {
      dir = await mkdtemp(join(tmpdir(), 'sitemap-'));
      await mkdir(join(dir, 'public'));
      const first = await write(join(dir, 'one'), 7);
      expect((await readdir(join(dir, 'one'))).filter((f) => f.startsWith('sitemap')).sort()).toEqual([
        'sitemap-1.xml',
        'sitemap-2.xml',
        'sitemap-3.xml',
        'sitemap.xml',
      ]);
      // The pages came unsorted: each part lists them in path order.
      expect(locs(await readFile(join(dir, 'one', 'sitemap-1.xml'), 'utf8'))).toEqual([`${BASE}/p/000`, `${BASE}/p/001`, `${BASE}/p/002`]);
      expect([...first.outputHashes.keys()].sort()).toEqual(['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);
      // An update in place of the same site writes none of them again (their hashes are the previous build's).
      const same = await write(join(dir, 'same'), 7, first.outputHashes);
      expect((await readdir(join(dir, 'same'))).filter((f) => f.startsWith('sitemap'))).toEqual([]);
      expect(same.outputHashes).toEqual(first.outputHashes);
      // Six pages need two parts: the third is removed from the output by the update in place.
      const smaller = await write(join(dir, 'smaller'), 6, first.outputHashes);
      const previous = { pages: new Map(), outputs: first.outputHashes, media: new Set() } as unknown as BuildState;
      expect(filesToRemove(previous, [], smaller.outputHashes, new Set())).toEqual(['sitemap-3.xml']);
      // The two parts it keeps list the same pages as before and are left as they are; the index changed.
      expect((await readdir(join(dir, 'smaller'))).filter((f) => f.startsWith('sitemap')).sort()).toEqual(['sitemap.xml']);
    });

    it("replaces a public/ file of the sitemap's name, in an update in place too", async () => {
      dir = await mkdtemp(join(tmpdir(), 'sitemap-'));
      await mkdir(join(dir, 'public'));
      const first = await write(join(dir, 'one'), 2);
      await writeFile(join(dir, 'public', 'sitemap.xml'), 'from public/');
      // The same pages: the sitemap is unchanged, but the staging folder has public/'s file by that name.
      await write(join(dir, 'again'), 2, first.outputHashes);
      expect(locs(await readFile(join(dir, 'again', 'sitemap.xml'), 'utf8'))).toEqual([`${BASE}/p/000`, `${BASE}/p/001`]);
    });

    it('leaves no write running when an output fails while its files are taken', async () => {
      dir = await mkdtemp(join(tmpdir(), 'sitemap-'));
      await mkdir(join(dir, 'public'));
      const failing = {
        *files() {
          for (let i = 0; i < 600; i++) yield { file: `out/${i}.txt`, content: 'x'.repeat(1000) };
          throw new Error('the output broke');
        },
      };
      const siteDir = join(dir, 'site');
      await expect(
        writeExtras({
          siteDir,
          publicDir: join(dir, 'public'),
          baseUrl: BASE,
          routeRules: {},
          csp: null,
          notFoundHtml: '',
          sitemap: [],
          collectors: [failing],
          pages: noPages,
        }),
      ).rejects.toThrow('the output broke');
      // Every write it started has ended by then: all 600 files are there, none half-written.
      const files = await readdir(join(siteDir, 'out'));
      expect(files.filter((f) => f.endsWith('.txt'))).toHaveLength(600);
      expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    });
  });
});
