import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type sanitizeHtml from 'sanitize-html';
import {
  isSafeUrl,
  isSafeUrlAttribute,
  RICH_TEXT_ANY_TAG_ATTRIBUTES,
  RICH_TEXT_ATTRIBUTES,
  RICH_TEXT_FIELDS,
  RICH_TEXT_TAGS,
  safeUrlField,
  URL_ATTRIBUTES,
  urlRuleSource,
} from '../../runtime/shared/content-rules.ts';
import { contentFragment, contentId } from '../../runtime/shared/content-ids.ts';
import { installedPackages } from '../config/installed-packages.ts';

/**
 * Rich text from the backend is untrusted HTML (docs/decisions/untrusted-content.md). Every rich-text field (`body`)
 * is cleaned with an allowlist before it is rendered or written into a payload: no scripts, no event
 * handlers, no iframes, no javascript: URLs, and no ids that could stand in for the page's own
 * elements (ids become content ids). Plain URL fields (`url`, `href`, `…Url`) keep only http(s), mailto, tel and relative URLs.
 * The rules are runtime/shared/content-rules.ts, which the browser's cleaner for live data uses too.
 */

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT_TAGS],
  allowedAttributes: Object.fromEntries(
    [...Object.entries(RICH_TEXT_ATTRIBUTES), ['*', RICH_TEXT_ANY_TAG_ATTRIBUTES] as const].map(([tag, names]) => [tag, [...names]]),
  ),
  // URLs are judged by the shared rule alone (isSafeUrlAttribute, in transformTags below), as in the
  // browser's cleaner: sanitize-html's own check would let through what the rule refuses, or the reverse.
  allowedSchemesAppliedToAttributes: [],
  disallowedTagsMode: 'discard',
  transformTags: {
    // URL attributes pass the shared rule; ids and the fragments of links into the page become content
    // ids (contentId), never the page's own. Attribute values arrive with entities decoded, as the
    // browser's parser gives them to DOMPurify.
    '*': (tagName, allAttribs) => {
      const attribs = Object.fromEntries(
        Object.entries(allAttribs).filter(([name, value]) => isSafeUrlAttribute(name.toLowerCase(), value)),
      );
      if (attribs.id !== undefined) attribs.id = contentId(attribs.id);
      if (tagName === 'a' && attribs.href !== undefined) attribs.href = contentFragment(attribs.href);
      return { tagName, attribs };
    },
  },
};

/**
 * What decides the output of sanitizeRichText: the options (rules included) and the installed versions
 * of sanitize-html and of the parsers it uses. Cleaned text remembered under another version is never
 * reused (rich-text-cache.ts).
 */
export function sanitizerVersion(): string {
  // Taken once, when a build first needs it: it reads a dozen package manifests, which every command
  // (`site --version` too) would otherwise pay for at start-up.
  version ??= createHash('sha256')
    .update(JSON.stringify(OPTIONS, (_key, value: unknown) => (typeof value === 'function' ? value.toString() : value)))
    .update(String(contentId))
    .update(String(contentFragment))
    .update(isSafeUrl.toString() + isSafeUrlAttribute.toString() + [...URL_ATTRIBUTES].join())
    .update(urlRuleSource())
    .update(installedPackages('sanitize-html', fileURLToPath(import.meta.url)).join('\0'))
    .digest('base64url')
    .slice(0, 16);
  return version;
}

let version: string | undefined;

/** Cleans one rich-text HTML string. */
export function sanitizeRichText(html: string): string {
  // Loaded on the first text to clean: sanitize-html and its parsers take ~50 ms to load, and a build
  // whose rich text is all in the rich-text cache cleans none.
  sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
  return sanitizer(html, OPTIONS);
}

let sanitizer: typeof sanitizeHtml | undefined;

/**
 * Returns a query result with every rich-text field cleaned and every unsafe URL field blocked; the
 * parts that needed no change are the input's own objects.
 * `cleanRichText` is sanitizeRichText, or a cache of its results (rich-text-cache.ts).
 */
export function sanitizeData<T>(value: T, cleanRichText: (html: string) => string = sanitizeRichText): T {
  // Copy on write: an object or array is copied only when something inside it changes, so clean data
  // (the usual case) costs a walk and no garbage.
  const walk = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      let copy: unknown[] | null = null;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        const clean = walk(item);
        if (clean !== item) (copy ??= value.slice())[i] = clean;
      }
      return copy ?? value;
    }
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | null = null;
    for (const key of Object.keys(record)) {
      const v = record[key];
      const clean = field(key, v);
      if (clean !== v) (copy ??= { ...record })[key] = clean;
    }
    return copy ?? record;
  };
  // A string under a rich-text or URL key is cleaned by that key's rule, also inside an array under it
  // (`body: ["<img onerror…>"]` must not pass as data because it is not a string).
  const field = (key: string, v: unknown): unknown => {
    if (typeof v === 'string') return RICH_TEXT_FIELDS.has(key) ? cleanRichText(v) : safeUrlField(key, v);
    if (!Array.isArray(v)) return walk(v);
    let copy: unknown[] | null = null;
    for (let i = 0; i < v.length; i++) {
      const clean = field(key, v[i]);
      if (clean !== v[i]) (copy ??= v.slice())[i] = clean;
    }
    return copy ?? v;
  };
  return walk(value) as T;
}
