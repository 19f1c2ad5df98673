import { describe, expect, it } from 'vitest';
import { sanitizeData, sanitizeRichText } from '../../../../cli/content/sanitize.ts';
import { BLOCKED_URL, isSafeUrl, isSafeUrlAttribute } from '../../../../runtime/shared/content-rules.ts';

describe('rich text from the backend', () => {
  it.each([
    ['<script>alert(1)</script><p>x</p>', '<p>x</p>'],
    ['</script><script>alert(1)</script>', ''],
    ['<!--<script>alert(1)</script>-->', ''],
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#09;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="/\\evil.example/">x</a>', '<a>x</a>'],
    ['<img src="x.png" onerror="alert(1)">', '<img src="x.png" />'],
    ['<p onclick="alert(1)">x</p>', '<p>x</p>'],
    ['<iframe src="https://evil.example/"></iframe>', ''],
    ['<meta http-equiv="refresh" content="0;url=https://evil.example/">', ''],
    ['<svg><script>alert(1)</script></svg>', ''],
  ])('cleans %j to %j', (html, clean) => {
    expect(sanitizeRichText(html)).toBe(clean);
  });

  it("gives every id the content prefix, so none can stand in for the page's own elements, and links in-page fragments to them", () => {
    expect(
      sanitizeRichText(
        '<p id="__BOOT__">a</p><h2 id="results">b</h2><p id="Main Content">c</p><a href="#results">r</a><a href="/about#main">m</a>',
      ),
    ).toBe(
      '<p id="c-boot">a</p><h2 id="c-results">b</h2><p id="c-main-content">c</p><a href="#c-results">r</a><a href="/about#c-main">m</a>',
    );
  });
});

describe('URL fields from the backend', () => {
  it.each([
    ['https://example.org/register', true],
    ['http://example.org', true],
    ['mailto:office@institute.example', true],
    ['tel:+3120000000', true],
    ['/media/report.pdf', true],
    ['report.pdf', true],
    ['#section', true],
    ['javascript:alert(1)', false],
    [' JavaScript:alert(1)', false],
    ['java\tscript:alert(1)', false],
    ['\u0001javascript:alert(1)', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['vbscript:msgbox(1)', false],
    ['//evil.example/', false],
    ['/\\evil.example/', false],
    ['\\\\evil.example/', false],
    ['/\t/evil.example/', false],
    ['\u00a0//evil.example/', false],
    ['java&#09script:alert(1)', false],
    ['&#106;avascript:alert(1)', false],
    ['/&nbsp/evil.example', false],
    ['data:image/png;base64,iVBORw0KGgo=', false],
    ['/a/>b', false],
    // Dot segments that resolve to `//host`: a document load of the resolved path would leave the site.
    ['/.//evil.example/x', false],
    ['/..//evil.example/x', false],
    ['/a/..//evil.example/x', false],
    ['/./about', true],
    ['../news/a', true],
  ])('%j is safe: %s', (url, safe) => {
    expect(isSafeUrl(url)).toBe(safe);
  });

  it('applies to every URL attribute, each candidate of a srcset included, and leaves other attributes alone', () => {
    for (const name of ['href', 'src', 'poster', 'cite', 'action', 'formaction', 'xlink:href']) {
      expect([name, isSafeUrlAttribute(name, '/\\evil.example')]).toEqual([name, false]);
      expect([name, isSafeUrlAttribute(name, '/fine')]).toEqual([name, true]);
      expect([name, isSafeUrlAttribute(name, '')]).toEqual([name, false]);
    }
    expect(isSafeUrlAttribute('srcset', 'a.png 1x, b.png 2x')).toBe(true);
    expect(isSafeUrlAttribute('srcset', 'a.png 1x, //evil.example/b.png 2x')).toBe(false);
    expect(isSafeUrlAttribute('title', 'javascript:alert(1)')).toBe(true);
  });

  it('cleans data: images and backslash hosts out of rich text', () => {
    expect(
      sanitizeRichText(
        '<img src="data:image/png;base64,iVBORw0KGgo=" alt="x"><a href="\\\\evil.example">a</a><a href="/\t/evil.example">b</a>',
      ),
    ).toBe('<img alt="x" /><a>a</a><a>b</a>');
  });

  it('cleans strings inside an array under a rich-text or URL key too, not only a string there', () => {
    const data = {
      item: {
        body: ['<img src="x.png" onerror="alert(1)">', { body: '<script>x()</script><p>ok</p>' }],
        url: ['javascript:alert(1)', '/fine'],
        tags: ['javascript:alert(1)'],
      },
    };
    expect(sanitizeData(data)).toEqual({
      item: { body: ['<img src="x.png" />', { body: '<p>ok</p>' }], url: [BLOCKED_URL, '/fine'], tags: ['javascript:alert(1)'] },
    });
  });

  it('blocks unsafe values of url, href and …Url fields and leaves other strings alone', () => {
    const data = {
      event: { registrationUrl: 'javascript:alert(1)', location: 'javascript: the talk', url: '/events/x' },
      nav: [{ href: 'data:text/html,x' }, { href: '/news' }],
      podcast: { audioUrl: 'https://cdn.example/a.mp3' },
    };
    expect(sanitizeData(data)).toEqual({
      event: { registrationUrl: BLOCKED_URL, location: 'javascript: the talk', url: '/events/x' },
      nav: [{ href: BLOCKED_URL }, { href: '/news' }],
      podcast: { audioUrl: 'https://cdn.example/a.mp3' },
    });
  });

  it('copies only the objects in which something changed, and never changes its input', () => {
    const clean = { title: 'Clean', body: '<p>Fine.</p>', tags: ['a'] };
    const data = {
      items: [clean, { title: 'Hostile', body: '<p>Hi<script>x()</script></p>', link: { href: 'javascript:x()' } }],
      meta: { count: 2 },
    };
    const before = structuredClone(data);
    const result = sanitizeData(data);
    expect(data).toEqual(before);
    expect(result.items[1]).toEqual({ title: 'Hostile', body: '<p>Hi</p>', link: { href: BLOCKED_URL } });
    // What needed no change is the input's own object: clean answers cost no copy.
    expect(result.items[0]).toBe(clean);
    expect(result.meta).toBe(data.meta);
    expect(result).not.toBe(data);
    expect(result.items).not.toBe(data.items);
    expect(sanitizeData(before.items[0])).toBe(before.items[0]);
  });
});
