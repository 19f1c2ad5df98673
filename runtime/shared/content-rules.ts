/**
 * What content from the backend may hold (docs/decisions/untrusted-content.md), for both cleaners: the build's
 * (cli/content/sanitize.ts, sanitize-html on Node) and the browser's for live data (runtime/live-sanitize.ts,
 * DOMPurify). One list, so a page looks the same whether its data came from the build or the API.
 */

/** Fields holding rich text (HTML), as in site/schema.graphql. */
export const RICH_TEXT_FIELDS: ReadonlySet<string> = new Set(['body']);

/** Fields holding one URL that pages put into href or src. */
export const URL_FIELD = /^(?:url|href|[a-z]+Url)$/;

/** What an unsafe URL field becomes: a link to nowhere rather than a missing string the page expects. */
export const BLOCKED_URL = '#';

/** Tags rich text may use; everything else is dropped with its content. */
export const RICH_TEXT_TAGS: readonly string[] = [
  'p',
  'br',
  'h2',
  'h3',
  'h4',
  'ul',
  'ol',
  'li',
  'a',
  'strong',
  'em',
  'b',
  'i',
  'blockquote',
  'code',
  'pre',
  'figure',
  'figcaption',
  'img',
  'hr',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'sup',
  'sub',
  'abbr',
  'cite',
];

/** Attributes each tag may keep, besides RICH_TEXT_ANY_TAG_ATTRIBUTES. */
export const RICH_TEXT_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'loading'],
  abbr: ['title'],
  th: ['scope'],
};

/** Attributes any tag may keep; an `id` only as contentId (content-ids.ts) makes it. */
export const RICH_TEXT_ANY_TAG_ATTRIBUTES: readonly string[] = ['id', 'lang'];

/** URL schemes links and images in rich text may use (relative URLs too, never protocol-relative ones). */
export const RICH_TEXT_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel'];

/**
 * Attributes that hold a URL (or, for srcset-like ones, a list of them). Both cleaners check every one of
 * them with isSafeUrl whatever the tag, so a tag or attribute added to the allowlists later is covered.
 */
export const URL_ATTRIBUTES: ReadonlySet<string> = new Set([
  'href',
  'src',
  'srcset',
  'imagesrcset',
  'poster',
  'cite',
  'action',
  'formaction',
  'xlink:href',
  'background',
  'longdesc',
  'lowsrc',
  'dynsrc',
  'data',
  'codebase',
  'classid',
  'archive',
  'manifest',
  'icon',
  'ping',
  'usemap',
  'profile',
]);

/** URL attributes holding a comma-separated list of `url descriptor` candidates. */
const URL_LIST_ATTRIBUTES: ReadonlySet<string> = new Set(['srcset', 'imagesrcset']);

/**
 * A URL a link or image may point at: http(s), mailto, tel, or relative; never protocol-relative
 * (`//host`, `\\host`, `/\host`, `/\t/host`: browsers read all of them as another host) and never
 * `data:`, `javascript:`, `vbscript:` or any other scheme, and never with `<` or `>`. The one URL rule: the build's cleaner
 * (cli/content/sanitize.ts) and the browser's (runtime/live-sanitize.ts) both decide with it alone.
 */
export function isSafeUrl(url: string): boolean {
  // Browsers drop tabs and newlines inside URLs and ignore leading spaces and controls; the HTML parser
  // turns NUL into U+FFFD and the cleaners trim whitespace. Whatever any of them would drop is removed
  // everywhere before looking, and references are decoded: this rejects a few harmless relative URLs
  // (`/ /x`, `a&#58;b`), never a hostile one.
  const seen = visibleUrl(url);
  // `<` and `>` have no place in a URL (they are percent-encoded); DOMPurify drops values that hold them.
  if (/^[/\\]{2}/.test(seen) || /[<>]/.test(seen)) return false;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(seen)?.[1];
  if (scheme === undefined) return staysOnSite(seen);
  return RICH_TEXT_SCHEMES.includes(scheme.toLowerCase());
}

/**
 * A relative URL stays on the site's own host once its dot segments are resolved: `/.//evil.example/x`
 * is a path whose resolved form, `//evil.example/x`, a script that loads it as a document (a fallback
 * navigation) would read as another host.
 */
function staysOnSite(relative: string): boolean {
  try {
    const url = new URL(relative, 'https://site.invalid/a/b');
    return url.host === 'site.invalid' && !url.pathname.startsWith('//');
  } catch {
    return false;
  }
}

/**
 * Whether attribute `name` (lower case) may keep `value`: a URL attribute only when every URL in it is
 * safe, and not when it is empty (it would point at the page itself; sanitize-html drops it anyway).
 */
export function isSafeUrlAttribute(name: string, value: string): boolean {
  if (!URL_ATTRIBUTES.has(name)) return true;
  if (visibleUrl(value) === '') return false;
  if (!URL_LIST_ATTRIBUTES.has(name)) return isSafeUrl(value);
  // `url 2x, url 640w`: a comma inside a URL splits it into pieces, each of which must be safe too.
  return value.split(',').every((candidate) => isSafeUrl(candidate.trim().split(/\s+/)[0] ?? ''));
}

/**
 * `url` as the rule reads it: character references decoded (over and over, so `&amp;#58;` counts as a colon)
 * and anything a browser, an HTML parser or a cleaner could drop removed (C0 controls, whitespace, U+FFFD).
 * Decoding here makes the two cleaners agree although their parsers differ: browsers decode `&#58`
 * and `&nbsp` without their semicolon, the build's parser leaves them as they are.
 */
function visibleUrl(url: string): string {
  let text = url;
  for (let i = 0; i < 8 && text.includes('&'); i++) {
    const next = text.replace(
      /&#(?:[xX]([0-9a-fA-F]{1,8})|(\d{1,10}));?|&(amp|lt|gt|nbsp|colon|sol|bsol|tab|newline);?/gi,
      (_m, hex?: string, dec?: string, name?: string) => {
        if (name) return NAMED_REFERENCES[name.toLowerCase()]!;
        const code = hex ? parseInt(hex, 16) : Number(dec);
        return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\uFFFD';
      },
    );
    if (next === text) break;
    text = next;
  }
  // C0 controls only: browsers keep C1 ones (and read `&#x85` as `…`, not U+0085).
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\s\uFFFD]/gu, '');
}

/** The named references that can change how a URL reads (the rest are letters or punctuation that cannot). */
const NAMED_REFERENCES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
  colon: ':',
  sol: '/',
  bsol: '\\',
  tab: '\t',
  newline: '\n',
};

/** A string field's value with an unsafe URL blocked: BLOCKED_URL for a URL field holding one, else the value. */
export function safeUrlField(key: string, value: string): string {
  return URL_FIELD.test(key) && !isSafeUrl(value) ? BLOCKED_URL : value;
}

/**
 * Everything the URL rule decides with, as text: its functions and its tables. The build's cleaner keeps
 * cleaned text only under a version that includes this (cli/content/sanitize.ts), so a rule tightened
 * anywhere, in a function or a list such as RICH_TEXT_SCHEMES, cleans everything again.
 */
export function urlRuleSource(): string {
  const tables = [RICH_TEXT_SCHEMES, [...URL_ATTRIBUTES], [...URL_LIST_ATTRIBUTES], NAMED_REFERENCES, String(URL_FIELD), BLOCKED_URL];
  return [isSafeUrl, staysOnSite, isSafeUrlAttribute, visibleUrl, safeUrlField].map(String).join('\n') + JSON.stringify(tables);
}
