import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partitionOf } from '../../cli/output/search-index.ts';
import { policyHeaders } from '../../cli/serve/preview.ts';
import { startStaticServer, type StaticServer } from '../../cli/serve/static-server.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';
import { runCli } from '../helpers/cli.ts';
import { startTestServer, type TestServer } from '../helpers/http-server.ts';
import { readIndexFragments } from '../helpers/search-index.ts';
import { expect, test, waitForHydration, type BuiltSite } from './fixtures.ts';

/**
 * Issue 21.2–21.4 in Chromium, against the index the e2e build wrote: the search page finds items by
 * the words of their titles and people by their names, reads and writes its search in the address,
 * works from the keyboard and for screen readers, loads nothing on other pages until the header's field
 * is focused, and runs under the search page's own Content-Security-Policy with no violation.
 */

const dir = (): string => process.env.E2E_SITE_DIR!;
const payload = async <T>(path: string): Promise<T> =>
  (JSON.parse(await readFile(join(dir(), path, '_payload.json'), 'utf8')) as { data: T }).data;

/** Words of a text, lowercased. */
const words = (text: string): string[] => text.toLowerCase().match(/[a-z]+/g) ?? [];

/**
 * A news item and a word of its title that no other result's title shares (nor a word that starts the
 * same, which stemming could match), so the item is the one result that has it in its heading.
 */
async function itemWithOwnWord(): Promise<{ slug: string; title: string; word: string }> {
  const titles = (await readIndexFragments(dir())).map((f) => f.meta.title ?? '');
  const { newsItems } = await payload<{ newsItems: { nodes: { slug: string; title: string }[] } }>('news');
  for (const item of newsItems.nodes) {
    for (const word of words(item.title).filter((w) => w.length >= 6)) {
      const stem = word.slice(0, 5);
      if (titles.filter((t) => words(t).some((w) => w.startsWith(stem))).length === 1) return { slug: item.slug, title: item.title, word };
    }
  }
  throw new Error('no news item has a title word of its own in the sample content');
}

async function search(page: Page, site: BuiltSite, query: string): Promise<void> {
  await page.goto(`${site.url}/search?q=${encodeURIComponent(query)}`);
  await waitForHydration(page);
  await expect(page.locator('#search-status')).toContainText(`for “${query}”`);
}

const results = (page: Page) => page.locator('.search-results .search-result__title a');

test.describe('the search page', () => {
  test('finds a news item first by a word of its title, with the word marked in the excerpt', async ({ page, site }) => {
    const item = await itemWithOwnWord();
    await search(page, site, item.word);
    await expect(results(page).first()).toHaveAttribute('href', `/news/${item.slug}`);
    await expect(results(page).first()).toHaveText(item.title);
    const first = page.locator('.search-result').first();
    await expect(first.locator('.search-result__section')).toHaveText('News');
    await expect(first.locator('time')).toHaveCount(1);
    await expect(first.locator('.search-result__excerpt mark').first()).toBeVisible();
  });

  test('finds a person by their name, leading to their entry in the people directory', async ({ page, site }) => {
    const { people } = await payload<{ people: { nodes: { slug: string; name: string }[] } }>('about/people');
    const person = people.nodes.find(
      (p) => people.nodes.filter((q) => q.name.split(' ').at(-1) === p.name.split(' ').at(-1)).length === 1,
    )!;
    await search(page, site, person.name);
    await expect(results(page).first()).toHaveText(person.name);
    await expect(results(page).first()).toHaveAttribute('href', `/about/people#c-person-${person.slug}`);
    await expect(page.locator('.search-result').first().locator('.search-result__section')).toHaveText('People');
    await results(page).first().click();
    await expect(page).toHaveURL(`${site.url}/about/people#c-person-${person.slug}`);
    await expect(page.locator(`#c-person-${person.slug}`)).toBeInViewport();
  });

  test('has no axe violations with results and filters shown, in either colour scheme', async ({ page, site }) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await search(page, site, 'archive');
      await expect(page.locator('.search-filters')).toBeVisible();
      await expect(results(page)).toHaveCount(10);
      // Every rule, every violation in full; only what passed is not detailed; axe runs in the page itself
      // (legacy mode: no blank page to merge frames' results in), as tests/e2e/a11y.spec.ts says why.
      const { violations } = await new AxeBuilder({ page })
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
        .options({ resultTypes: ['violations'] })
        .setLegacyMode()
        .analyze();
      expect(violations.map((v) => `${scheme} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
    }
  });

  test('announces the number of results in a status region, and shows more on request with focus on the first new one', async ({
    page,
    site,
  }) => {
    await search(page, site, 'archive');
    const status = page.locator('#search-status');
    await expect(status).toHaveAttribute('role', 'status');
    await expect(status).toHaveText(/^\d+ results for “archive”\.$/);
    const total = Number(/^(\d+)/.exec((await status.textContent())!)![1]);
    expect(total).toBeGreaterThan(10);
    await expect(page.locator('#search-field')).toHaveAttribute('aria-describedby', 'search-status');
    await page.getByRole('button', { name: 'More results' }).click();
    await expect(results(page)).toHaveCount(Math.min(20, total));
    await expect(results(page).nth(10)).toBeFocused();
    await page.locator('#search-field').fill('qqqzzzxx');
    await expect(status).toHaveText('No results for “qqqzzzxx”.');
  });

  test('is used from the keyboard: type, arrow through the results, back to the field, open one, and Back returns to it', async ({
    page,
    site,
  }) => {
    await page.goto(`${site.url}/search`);
    await waitForHydration(page);
    await page.locator('#search-field').focus();
    await page.keyboard.type('archive');
    await expect(page).toHaveURL(`${site.url}/search?q=archive`);
    await expect(results(page)).toHaveCount(10);
    await page.keyboard.press('ArrowDown');
    await expect(results(page).nth(0)).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(results(page).nth(1)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(page.locator('#search-field')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    const href = (await results(page).nth(0).getAttribute('href'))!;
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(site.url + href);
    await page.goBack();
    await expect(page).toHaveURL(`${site.url}/search?q=archive`);
    await expect(page.locator('#search-field')).toHaveValue('archive');
    await expect(results(page).first()).toHaveAttribute('href', href);
  });

  test('keeps the search, its section and its year in the address: shared links open it, Back steps through searches', async ({
    page,
    site,
  }) => {
    await search(page, site, 'archive');
    await page.locator('#search-field').fill('concert');
    await page.locator('#search-field').press('Enter');
    await expect(page).toHaveURL(`${site.url}/search?q=concert`);
    await expect(page.locator('#search-status')).toContainText('for “concert”');
    await page.getByRole('radio', { name: /^Events/ }).check();
    await expect(page).toHaveURL(`${site.url}/search?q=concert&section=events`);
    await expect(page.locator('#search-status')).toContainText('for “concert” in Events');
    for (const section of await page.locator('.search-result__section').allTextContents()) expect(section).toBe('Events');
    const year = await page.locator('#search-year option').nth(1).getAttribute('value');
    await page.locator('#search-year').selectOption(year!);
    await expect(page).toHaveURL(`${site.url}/search?q=concert&section=events&year=${year}`);
    await expect(page.locator('#search-status')).toContainText(`in Events from ${year}`);
    await page.goBack();
    await page.goBack();
    await expect(page).toHaveURL(`${site.url}/search?q=concert`);
    await expect(page.getByRole('radio', { name: /^All/ })).toBeChecked();
    await page.goBack();
    await expect(page).toHaveURL(`${site.url}/search?q=archive`);
    await expect(page.locator('#search-field')).toHaveValue('archive');
    await expect(page.locator('#search-status')).toContainText('for “archive”');
  });

  test("without JavaScript, the header's field sends the search to /search, which says that search needs JavaScript", async ({
    browser,
    site,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    try {
      await page.goto(`${site.url}/news`);
      await page.getByRole('searchbox', { name: 'Search the site' }).fill('violin');
      await page.getByRole('searchbox', { name: 'Search the site' }).press('Enter');
      await expect(page).toHaveURL(`${site.url}/search?q=violin`);
      await expect(page.locator('.search-page__note')).toContainText('Search needs JavaScript');
    } finally {
      await context.close();
    }
  });
});

test.describe('zero cost to every other page', () => {
  const searchFiles = (site: BuiltSite, requests: Request[]): string[] => {
    const chunk = site.meta.chunks.search?.[0];
    expect(chunk, 'the search route has a chunk').toBeTruthy();
    return requests.map((r) => new URL(r.url()).pathname).filter((path) => path.startsWith('/_search/') || path === chunk);
  };

  test('the first load of other pages requests nothing of the search; focusing the header field loads its code, and no index', async ({
    page,
    site,
  }) => {
    const requests: Request[] = [];
    page.on('request', (r) => void requests.push(r));
    for (const path of [
      '/',
      '/news',
      '/events',
      '/about/people',
      '/courses',
      site.meta.prerendered.find((p) => p.startsWith('/news/') && !p.startsWith('/news/page/'))!,
    ]) {
      await page.goto(site.url + path);
      await waitForHydration(page);
      await page.waitForLoadState('networkidle');
      expect(searchFiles(site, requests), path).toEqual([]);
    }
    await page.getByRole('searchbox', { name: 'Search the site' }).focus();
    await expect.poll(() => searchFiles(site, requests).sort()).toEqual([site.meta.chunks.search![0]!, '/_search/pagefind.js'].sort());
    await page.waitForLoadState('networkidle');
    // The code only: no WebAssembly, no worker, no part of the index before the search page asks.
    expect(searchFiles(site, requests).filter((path) => /wasm|worker|pf_|entry/.test(path))).toEqual([]);
  });
});

test.describe('under the Content-Security-Policy site preview sends', () => {
  let reports: TestServer;
  let server: StaticServer;

  test.beforeAll(async () => {
    reports = await startTestServer((_req, res) => void res.writeHead(204).end());
    const policies = await policyHeaders(dir());
    // Each page's own policy as a header too, with a report-uri, so a violation anywhere (a worker included) is also posted.
    server = await startStaticServer({
      root: dir(),
      headers: async (file) => {
        const headers = await policies(file);
        const policy = headers['content-security-policy'];
        return policy ? { 'content-security-policy': `${policy}; report-uri ${reports.url}/csp-report` } : headers;
      },
    });
  });

  test.afterAll(async () => {
    await server?.close();
    await reports?.close();
  });

  test('the search page finds results, and a visitor goes to one and back, with no violation', async ({ page, consoleProblems }) => {
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective} blocked ${e.blockedURI || 'inline'}`));
    });
    await page.goto(`${server.url}/news`);
    await waitForHydration(page);
    await page.getByRole('searchbox', { name: 'Search the site' }).fill('archive');
    await page.getByRole('searchbox', { name: 'Search the site' }).press('Enter');
    await expect(page).toHaveURL(`${server.url}/search?q=archive`);
    await waitForHydration(page);
    await expect(results(page)).toHaveCount(10);
    await page.getByRole('radio', { name: /^News/ }).check();
    await expect(page.locator('#search-status')).toContainText('in News');
    await results(page).first().click();
    await expect(page.locator('main h1')).not.toBeEmpty();
    await page.goBack();
    await expect(results(page).first()).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations)).toEqual([]);
    expect(consoleProblems.filter((p) => /Content Security Policy|Refused to|WebAssembly/i.test(p))).toEqual([]);
    await page.waitForTimeout(500);
    expect(reports.requests.filter((r) => r.url === '/csp-report').map((r) => r.body)).toEqual([]);
  });

  test('no other page may compile WebAssembly', async ({ page }) => {
    const compiles = (): Promise<string> =>
      page.evaluate(() =>
        WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
          () => 'compiled',
          () => 'refused',
        ),
      );
    await page.goto(`${server.url}/search`);
    await waitForHydration(page);
    expect(await compiles()).toBe('compiled');
    await page.goto(`${server.url}/news`);
    await waitForHydration(page);
    expect(await compiles()).toBe('refused');
  });
});

test.describe("a large site's index, in partitions the search page merges", () => {
  let root: string;
  let server: StaticServer;

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    // The sample content in partitions of 30 pages (5 of them), served with each page's policy as a header.
    root = await mkdtemp(join(tmpdir(), 'site-e2e-search-parts-'));
    const out = join(root, 'site');
    const result = await runCli(['build', '--out', out, '--cache-dir', await seedBundle(join(root, 'cache')), '--quiet', '--no-report'], {
      env: { SITE_SEARCH_PARTITION_PAGES: '30' },
    });
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(out, '_search/parts.json'), 'utf8'))).toHaveLength(4);
    server = await startStaticServer({ root: out, headers: await policyHeaders(out) });
  });

  test.afterAll(async () => {
    await server?.close();
    await rm(root, { recursive: true, force: true });
  });

  test('finds an item first by a word of its title, and ranks and counts the results of every partition together, with no violation', async ({
    page,
    site,
    consoleProblems,
  }) => {
    const item = await itemWithOwnWord();
    const shown = async (url: string, query: string) => {
      await page.goto(`${url}/search?q=${encodeURIComponent(query)}`);
      await waitForHydration(page);
      await expect(page.locator('#search-status')).toContainText(`for “${query}”`);
      return {
        status: await page.locator('#search-status').textContent(),
        filters: await page.locator('.search-filters').textContent(),
        first: await results(page).first().getAttribute('href'),
      };
    };
    const parted = await shown(server.url, item.word);
    expect(parted.first).toBe(`/news/${item.slug}`);
    // A common word: results from several partitions, ranked together and counted once each, the filters
    // counting them as the status does. (Which words match a prefix can differ a little from one index:
    // Pagefind expands a prefix within each index's own words.)
    const common = await shown(server.url, 'archive');
    const single = await shown(site.url, 'archive');
    const count = (status: string | null): number => Number(/(\d+) results?/.exec(status ?? '')?.[1] ?? NaN);
    expect(count(common.status)).toBeGreaterThanOrEqual(count(single.status));
    expect(common.filters).toContain(`All (${count(common.status)})`);
    const paths = await results(page).evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
    expect(new Set(paths.map((path) => partitionOf(path, 5))).size).toBeGreaterThan(1);
    expect(consoleProblems.filter((p) => /Content Security Policy|Refused to|WebAssembly|pagefind/i.test(p))).toEqual([]);
  });

  test('says search is not available when the first partition or another cannot be loaded, rather than waiting without end', async ({
    page,
  }) => {
    for (const missing of ['_search/pagefind-entry.json', '_search/part-2/pagefind-entry.json']) {
      const entry = join(root, 'site', missing);
      const kept = await readFile(entry);
      await rm(entry);
      try {
        await page.goto(`${server.url}/search?q=archive`);
        await waitForHydration(page);
        await expect(page.locator('#search-status'), missing).toHaveText('Search is not available at the moment. Please try again later.', {
          timeout: 15_000,
        });
      } finally {
        await writeFile(entry, kept);
      }
    }
  });
});
