import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LinkUsers, createPageInspector, inspectPage } from '../../../../cli/checks/collect.ts';
import { extractPageFacts } from '../../../../cli/checks/extract.ts';
import { classifyLink, siteFileExists } from '../../../../cli/checks/links.ts';
import { runContentChecks, type CheckContext } from '../../../../cli/checks/run.ts';

const BASE = 'https://institute.example';

/** A page as the build renders it: head, markup, then the inline boot data (whose JSON must not be read as markup). */
function page({ title, body }: { title: string; body: string }): string {
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><div id="app">${body}</div><script type="application/json" id="__BOOT__">{"html":"\\u003ca href=\\"/boot-only\\"\\u003e"}</script></body></html>`;
}

function context(overrides: Partial<CheckContext> = {}): CheckContext {
  return {
    baseUrl: BASE,
    routeRules: { '/about/team': { redirect: '/about/people' }, '/old/**': { redirect: '/news' } },
    fileExists: async (path) => path === '/feeds/news.xml' || path === '/media/a.jpg',
    payloadBudget: 1000,
    ...overrides,
  };
}

async function check(pages: { path: string; title?: string; body: string; payload?: string }[], ctx = context()) {
  const inspector = createPageInspector();
  for (const p of pages)
    inspector.add(
      p.path,
      'route',
      inspectPage(page({ title: p.title ?? `Title of ${p.path}`, body: p.body }), p.payload ?? '{}', ctx.payloadBudget),
    );
  return runContentChecks(inspector.result(), ctx);
}

describe('extractPageFacts', () => {
  it('reads the title, links, image sources, ids and images without alt from the markup only', () => {
    const facts = extractPageFacts(
      page({
        title: 'News &amp; events',
        body: '<main id="main"><h2 id="a&amp;b">x</h2><a href="/news?x=1&amp;y=2">n</a><a class="c" href="/news?x=1&amp;y=2" id="link">again</a><img src="/media/a.jpg" alt=""/><img src="/media/b.jpg" width="1"/><area href="/map"/></main>',
      }),
    );
    expect(facts).toEqual({
      title: 'News & events',
      links: ['/news?x=1&y=2', '/media/a.jpg', '/media/b.jpg', '/map'],
      ids: ['app', 'main', 'a&b', 'link'],
      imagesWithoutAlt: ['/media/b.jpg'],
    });
  });
});

describe('classifyLink', () => {
  it('treats root-relative, relative, anchor and same-origin absolute links as internal, and others as external', () => {
    expect(classifyLink('/news/', '/about', BASE)).toEqual({ kind: 'internal', path: '/news', hash: null });
    expect(classifyLink('people#board', '/about/contact', BASE)).toEqual({ kind: 'internal', path: '/about/people', hash: 'board' });
    expect(classifyLink('#top', '/about', BASE)).toEqual({ kind: 'internal', path: '/about', hash: 'top' });
    expect(classifyLink('https://institute.example/events/index.html', '/', BASE)).toEqual({
      kind: 'internal',
      path: '/events',
      hash: null,
    });
    expect(classifyLink('/media/caf%C3%A9.jpg', '/', BASE)).toEqual({ kind: 'internal', path: '/media/café.jpg', hash: null });
    for (const href of ['https://doi.org/10.1/x', 'mailto:info@institute.example', 'tel:+4722', '//cdn.example/x.js', '#'])
      expect(classifyLink(href, '/', BASE)).toEqual({ kind: 'external' });
  });

  it('strips only what a browser strips around an href (controls and spaces), so a no-break space or BOM is part of the link', () => {
    // The URL standard strips leading and trailing C0 controls and spaces; String.prototype.trim also
    // strips U+00A0, U+FEFF and other Unicode spaces, which a browser keeps (and the link then leads elsewhere).
    expect(classifyLink(' \t/about\n ', '/news', BASE)).toEqual({ kind: 'internal', path: '/about', hash: null });
    expect(classifyLink('\u0001/about\u001f', '/news', BASE)).toEqual({ kind: 'internal', path: '/about', hash: null });
    // A NUL is no exception: the HTML parser reads it as U+FFFD, which stays in the URL.
    expect(classifyLink('\u0000/about', '/news/item', BASE)).toEqual({ kind: 'internal', path: '/news/\ufffd/about', hash: null });
    expect(classifyLink('/about\u0000', '/news/item', BASE)).toEqual({ kind: 'internal', path: '/about\ufffd', hash: null });
    for (const space of ['\u00a0', '\ufeff', '\u2003']) {
      const origin = new URL(BASE).origin;
      const browser = new URL(`${space}/about`, `${origin}/news/item`);
      expect(decodeURIComponent(browser.pathname)).not.toBe('/about');
      expect(classifyLink(`${space}/about`, '/news/item', BASE)).toEqual({
        kind: 'internal',
        path: decodeURIComponent(browser.pathname),
        hash: null,
      });
      expect(classifyLink(`/about${space}`, '/news/item', BASE)).toEqual({ kind: 'internal', path: `/about${space}`, hash: null });
      expect(classifyLink(space, '/news/item', BASE)).not.toEqual({ kind: 'external' });
    }
  });

  it('resolves a root-relative path as URL parsing does, dot segments, doubled slashes and encodings included', () => {
    // Plain paths skip URL parsing: each of these must come out as the parser has it.
    const viaUrl = (href: string, page: string) => {
      const url = new URL(href.trim(), new URL(BASE).origin + page);
      if (url.origin !== new URL(BASE).origin) return { kind: 'external' };
      const decode = (v: string) => {
        try {
          return decodeURIComponent(v);
        } catch {
          return v;
        }
      };
      const path = decode(url.pathname);
      const withoutIndex = path.endsWith('/index.html') ? path.slice(0, -'index.html'.length) : path;
      return {
        kind: 'internal',
        path: withoutIndex.length > 1 ? withoutIndex.replace(/\/+$/, '') || '/' : withoutIndex || '/',
        hash: url.hash.length > 1 ? decode(url.hash.slice(1)) : null,
      };
    };
    const hrefs = [
      '/',
      '/news',
      '/news/',
      '/news/a-b_c~d.e',
      '/news/index.html',
      '/news#',
      '/news#top',
      '/news/#x.y-z',
      ' /about ',
      '/a/./b',
      '/a/../b',
      '/a/..',
      '/a/.',
      '/./a',
      '/../a',
      '/a/.b',
      '/a/..b',
      '/a/b..',
      '/.well-known/x',
      '/a//b',
      '//a/b',
      '/a//',
      '/news/caf%C3%A9',
      '/news/a b',
      '/news/ä',
      '/news?page=2',
      '/news#a/b',
      '/news#%20',
      '/A/B.PDF',
      '/a/...',
      '/a/.../b',
    ];
    for (const href of hrefs) expect([href, classifyLink(href, '/about/x', BASE)]).toEqual([href, viaUrl(href, '/about/x')]);
  });
});

describe('runContentChecks', () => {
  it('accepts links to pages, redirects, written files, existing anchors and other sites', async () => {
    const warnings = await check([
      {
        path: '/',
        body: '<a href="/about#history">a</a><a href="/about/team">t</a><a href="/old/2019/x">o</a><a href="/feeds/news.xml">f</a><img src="/media/a.jpg" alt="A"/><a href="https://elsewhere.example/gone">e</a><a href="#main">skip</a><main id="main"></main>',
      },
      { path: '/about', body: '<h2 id="history">History</h2>' },
    ]);
    expect(warnings).toEqual([]);
  });

  it('lists a broken link on every page that has it, and a missing anchor on the page that links to it', async () => {
    const warnings = await check([
      { path: '/news/a', body: '<a href="/news/gone">x</a><a href="/about#no-such-section">y</a>' },
      { path: '/news/b', body: '<a href="/news/gone">x</a><a href="#nowhere">z</a>' },
      { path: '/about', body: '<h2 id="history">History</h2>' },
    ]);
    expect(warnings.map((w) => [w.page, w.check, w.message])).toEqual([
      ['/news/a', 'link', 'links to /news/gone, which is not a page, a redirect or a file of this build'],
      ['/news/a', 'anchor', 'links to /about#no-such-section, but /about has no element with id "no-such-section"'],
      ['/news/b', 'link', 'links to /news/gone, which is not a page, a redirect or a file of this build'],
      ['/news/b', 'anchor', 'links to #nowhere, but /news/b has no element with id "nowhere"'],
    ]);
    expect(warnings[0]!.fix).toMatch(/content backend/);
  });

  it('flags images without alt text, pages sharing a title, a missing title and payloads over the budget', async () => {
    const warnings = await check([
      { path: '/a', title: 'Same', body: '<img src="/media/a.jpg"/>' },
      { path: '/b', title: 'Same', body: '', payload: `{"data":"${'x'.repeat(2000)}"}` },
      { path: '/c', title: ' ', body: '' },
    ]);
    expect(warnings.map((w) => [w.page, w.check, w.message])).toEqual([
      ['/a', 'image-alt', 'shows the image /media/a.jpg without alt text'],
      ['/a', 'title', 'shares its title "Same" with /b'],
      ['/b', 'payload-budget', 'its _payload.json is 2.0 KiB, over the budget of 1000 B'],
      ['/b', 'title', 'shares its title "Same" with /a'],
      ['/c', 'title', 'has no <title>'],
    ]);
  });

  it('measures payloads in UTF-8 bytes, not characters', async () => {
    const nearBudget = `{"t":"${'é'.repeat(600)}"}`;
    expect(nearBudget.length).toBeLessThan(1000);
    const warnings = await check([{ path: '/x', body: '', payload: nearBudget }]);
    expect(warnings.map((w) => w.message)).toEqual(['its _payload.json is 1.2 KiB, over the budget of 1000 B']);
  });

  it('resolves `https:other` against each page, as a browser does on an https page, not once for every page', async () => {
    const warnings = await check([
      { path: '/other', body: '' },
      { path: '/blog/other', body: '' },
      { path: '/blog/post', body: '<a href="https:other">fine here</a>' },
      { path: '/people/post', body: '<a href="https:other">broken here</a>' },
    ]);
    expect(warnings.map((w) => [w.page, w.check])).toEqual([['/people/post', 'link']]);
  });

  it('asks the file system only once per distinct path that is not a page', async () => {
    const asked: string[] = [];
    await check(
      Array.from({ length: 50 }, (_, i) => ({ path: `/p/${i}`, body: '<a href="/feeds/news.xml">f</a><a href="/p/0">p</a>' })),
      context({ fileExists: async (path) => (asked.push(path), path === '/feeds/news.xml') }),
    );
    expect(asked).toEqual(['/feeds/news.xml']);
  });
});

describe('createPageInspector', () => {
  it('keeps, for each link, every page using it in order, past the point where the list changes form, and a broken one is reported on each of them', async () => {
    const inspector = createPageInspector();
    const ctx = context();
    const paths = Array.from({ length: 300 }, (_, i) => `/p/${i}`);
    for (const [i, path] of paths.entries()) {
      // Every page links to /missing (a list that grows past its small form); every tenth also to its own /gone-i.
      const body = `<a href="/missing">x</a>${i % 10 === 0 ? `<a href="/gone-${i}">y</a>` : ''}`;
      inspector.add(path, 'route', inspectPage(page({ title: path, body }), '{}', ctx.payloadBudget));
    }
    const site = inspector.result();
    expect([...site.links.get('/missing')!]).toEqual(paths.map((_, i) => i));
    expect([...site.links.get('/gone-20')!]).toEqual([20]);
    const warnings = await runContentChecks(site, ctx);
    const missing = warnings.filter((w) => w.message.includes('/missing'));
    expect(missing.length).toBe(300);
    expect(new Set(missing.map((w) => w.page))).toEqual(new Set(paths));
    expect(warnings.filter((w) => w.message.includes('/gone-')).length).toBe(30);
  });

  it('gives back the pages of a link on many pages exactly, whether they follow one another or not', () => {
    const inspector = createPageInspector();
    const ctx = context();
    // Runs of pages with the link, of lengths 1 to 9, between gaps of 1 to 3 pages without it; and one run of 200.
    const users: number[] = [];
    for (let i = 0, run = 1, gap = 1; i < 600; i += run + gap, run = (run % 9) + 1, gap = (gap % 3) + 1)
      for (let k = i; k < i + run && k < 600; k++) users.push(k);
    for (let k = 700; k < 900; k++) users.push(k);
    const using = new Set(users);
    for (let i = 0; i < 1000; i++)
      inspector.add(
        `/p/${i}`,
        'route',
        inspectPage(page({ title: `/p/${i}`, body: using.has(i) ? '<a href="/shared">x</a>' : '' }), '{}', ctx.payloadBudget),
      );
    expect([...inspector.result().links.get('/shared')!]).toEqual(users);
  });

  it('gives back every link with its pages, in the order first seen, for many links over many pages', () => {
    // A reference map against the inspector's packed lists: links on one page, on a few, on runs of pages, on nearly all.
    let seed = 7;
    const random = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const links = new LinkUsers();
    const expected = new Map<string, number[]>();
    for (let page = 0; page < 5000; page++) {
      const onPage = new Set<string>(['/nav/a', '/nav/b']);
      if (page % 7 !== 3) onPage.add('/mostly');
      for (let k = random(6); k > 0; k--) onPage.add(`/item/${random(3000)}`);
      if (random(4) === 0) onPage.add(`/own/${page}`);
      for (const link of onPage) {
        links.add(link, page);
        expected.set(link, [...(expected.get(link) ?? []), page]);
      }
    }
    expect(links.size).toBe(expected.size);
    expect([...links.keys()]).toEqual([...expected.keys()]);
    expect([...links].map(([link, users]) => [link, [...users]])).toEqual([...expected]);
    expect([...links.values()].map((users) => [...users])).toEqual([...expected.values()]);
    const uses: number[][] = [];
    links.forEachUse((link, page) => void (uses[link] ??= []).push(page));
    expect(uses).toEqual([...expected.values()]);
    expect([...links.get('/nav/a')!].length).toBe(5000);
    expect(links.get('/nowhere')).toBeUndefined();
  });
});

describe('siteFileExists', () => {
  it('finds files and folders with an index.html of the site, and nothing outside it, whatever the path climbs through', async () => {
    const root = await mkdtemp(join(tmpdir(), 'site-files-exist-'));
    try {
      await mkdir(join(root, 'site/docs'), { recursive: true });
      await writeFile(join(root, 'site/docs/index.html'), '');
      await writeFile(join(root, 'site/feed.xml'), '');
      await writeFile(join(root, 'secret.txt'), '');
      const exists = siteFileExists(join(root, 'site'));
      expect([await exists('/docs'), await exists('/feed.xml'), await exists('/missing')]).toEqual([true, true, false]);
      // What classifyLink gives for `/%2e%2e%2fsecret.txt` (decoded after URL parsing) and for an href URL parsing refused.
      for (const path of ['/../secret.txt', '/docs/../../secret.txt', 'https://exa mple/../../../secret.txt', '/feed.xml\0'])
        expect(await exists(path), path).toBe(false);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
