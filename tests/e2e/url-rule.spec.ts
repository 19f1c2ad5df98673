import { expect, test, type Page } from '@playwright/test';
import { build } from 'esbuild';
import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { sanitizeData, sanitizeRichText } from '../../cli/content/sanitize.ts';
import { BLOCKED_URL } from '../../runtime/shared/content-rules.ts';

/**
 * The build (cli/content/sanitize.ts, sanitize-html on Node) and the browser (runtime/live-sanitize.ts, DOMPurify
 * in real Chromium) keep and drop exactly the same URLs, fed the same generated inputs: one URL rule
 * (isSafeUrl in runtime/shared/content-rules.ts) decides on both sides.
 */

/** Which of the three places a URL can be in survived cleaning. */
interface Kept {
  field: boolean;
  href: boolean;
  src: boolean;
}

/** Data with `url` in a URL field, a link and an image of rich text. Quotes are escaped; entities are left for the parsers to decode. */
function dataWith(url: string): { url: string; body: string } {
  const attr = url.replaceAll('"', '&quot;');
  return { url, body: `<p><a href="${attr}">link</a><img src="${attr}" alt="image"></p>` };
}

function keptOf(clean: { url: string; body: string }): Kept {
  return { field: clean.url !== BLOCKED_URL, href: /<a href=/.test(clean.body), src: /<img src=/.test(clean.body) };
}

function buildSide(urls: readonly string[]): Kept[] {
  return urls.map((url) => keptOf(sanitizeData(dataWith(url), sanitizeRichText)));
}

async function browserSide(page: Page, urls: readonly string[]): Promise<Kept[]> {
  const cleaned = await page.evaluate(
    (all) =>
      all.map((data) => (window as unknown as { liveSanitize: { sanitizeLiveData<T>(value: T): T } }).liveSanitize.sanitizeLiveData(data)),
    urls.map(dataWith),
  );
  return cleaned.map(keptOf);
}

/** Pieces browsers and parsers have been fooled with: controls, whitespace, backslashes, entities, case. */
const LEADING = ['', ' ', '\t', '\n', '\r', '\u0001', '\u001f', '\u0000', '\u00a0', '\ufeff', '&#1;', '&#x20;', '&Tab;', '&#0;'];
const SCHEMES = [
  '',
  'javascript',
  'JaVaScRiPt',
  'java\tscript',
  'java\nscript',
  'java&#09;script',
  'java&Tab;script',
  'jav&#x61;script',
  'vbscript',
  'VBScript',
  'data',
  'DATA',
  'http',
  'HTTPS',
  'https',
  'mailto',
  'tel',
  'ftp',
  'file',
  'h\ttp',
  'x-js',
  'java script',
  'java\u0000script',
];
const COLONS = ['', ':', '&colon;', '&#58;', '&#x3a;', '&#x3A', '\t:', ': '];
const SLASHES = [
  '',
  '/',
  '//',
  '///',
  '\\',
  '\\\\',
  '/\\',
  '\\/',
  '/\t/',
  '/\n/',
  '\t//',
  ' //',
  '/&#92;',
  '&#47;&#47;',
  '&sol;/',
  '\\\t\\',
  '/\u0000/',
];
const REST = [
  '',
  'evil.example',
  'evil.example/x?y=1#z',
  'alert(1)',
  'image/png;base64,iVBORw0KGgo=',
  'text/html,<script>alert(1)</script>',
  'news/item',
  '#top',
  '?q=1',
  'office@institute.example',
  '+3120000000',
  'a"b',
  '%0aevil',
];

const piece = (list: readonly string[]): fc.Arbitrary<string> => fc.constantFrom(...list);
const crafted = fc.tuple(piece(LEADING), piece(SCHEMES), piece(COLONS), piece(SLASHES), piece(REST)).map((parts) => parts.join(''));
const noise = fc.string({
  unit: fc.constantFrom(
    'j',
    'a',
    'v',
    's',
    ':',
    '/',
    '\\',
    '\t',
    '\n',
    '\r',
    ' ',
    '\u0000',
    '\u0001',
    '\u00a0',
    '&',
    '#',
    ';',
    'x',
    '3',
    'A',
    'h',
    't',
    'p',
    'd',
    '.',
    '?',
  ),
  maxLength: 24,
});
const anyUrl = fc.oneof({ weight: 3, arbitrary: crafted }, { weight: 1, arbitrary: noise }, { weight: 1, arbitrary: fc.webUrl() });

test.describe('the URL rule, in the build and in the browser', () => {
  test.beforeEach(async ({ page }) => {
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('../../runtime/live-sanitize.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      globalName: 'liveSanitize',
      platform: 'browser',
      write: false,
      logLevel: 'silent',
    });
    await page.setContent('<!doctype html><html><head><title>URL rule</title></head><body></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });

  test('hostile URLs the browser took and the build refused are dropped on both sides', async ({ page }) => {
    const hostile = [
      '/.//evil.example/x',
      '/..//evil.example/x',
      '\\\\evil.example/',
      '/\\evil.example/',
      '/\t/evil.example/',
      '//evil.example/',
      '\\/evil.example',
      'data:image/png;base64,iVBORw0KGgo=',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'javascript:alert(1)',
      ' vbscript:msgbox(1)',
      '\u0001javascript:alert(1)',
      'java&#09;script:alert(1)',
      'java&#09script:alert(1)',
      '&#x20;//evil.example',
      '/&#92;evil.example',
      '/&nbsp/evil.example',
      'vbscript&#x3A',
    ];
    const none: Kept = { field: false, href: false, src: false };
    expect(await browserSide(page, hostile)).toEqual(hostile.map(() => none));
    expect(buildSide(hostile)).toEqual(hostile.map(() => none));
    const fine = [
      'https://example.org/a',
      'http://example.org',
      'mailto:office@institute.example',
      'tel:+3120000000',
      '/media/a.png',
      'news/item',
      '#top',
      '?page=2',
    ];
    const all: Kept = { field: true, href: true, src: true };
    expect(await browserSide(page, fine)).toEqual(fine.map(() => all));
    expect(buildSide(fine)).toEqual(fine.map(() => all));
  });

  test('an array of strings under a rich-text or URL key is cleaned like one string, on both sides', async ({ page }) => {
    const data = { body: ['<img src="x.png" onerror="alert(1)">'], url: ['javascript:alert(1)', '/fine'] };
    const inBrowser = await page.evaluate(
      (value) =>
        (window as unknown as { liveSanitize: { sanitizeLiveData: (v: unknown) => unknown } }).liveSanitize.sanitizeLiveData(value),
      data,
    );
    const inBuild = sanitizeData(data);
    // The two cleaners write markup each their own way (`<img …>` and `<img … />`); what they keep is the same.
    expect((inBrowser as typeof data).url).toEqual(inBuild.url);
    expect((inBrowser as typeof data).body[0]).toMatch(/^<img src="x.png"\s*\/?>$/);
    expect(inBuild.body[0]).toMatch(/^<img src="x.png"\s*\/?>$/);
  });

  test('generated URLs, adversarial ones included, are kept or dropped alike by both sides', async ({ page }) => {
    test.setTimeout(120_000);
    await fc.assert(
      fc.asyncProperty(fc.array(anyUrl, { minLength: 1, maxLength: 50 }), async (urls) => {
        const inBrowser = await browserSide(page, urls);
        const inBuild = buildSide(urls);
        for (let i = 0; i < urls.length; i++) expect({ url: urls[i], kept: inBrowser[i] }).toEqual({ url: urls[i], kept: inBuild[i] });
      }),
      { numRuns: 60 },
    );
  });
});
