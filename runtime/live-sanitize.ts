import DOMPurify, { type Config } from 'dompurify';
import { contentFragment, contentId } from './shared/content-ids.ts';
import * as rules from './shared/content-rules.ts';

/**
 * Rich text that comes live from the API (editor preview, payload fallback) is as untrusted as the HTML
 * the build cleans (docs/decisions/untrusted-content.md), and pages render it as HTML. The build uses sanitize-html,
 * which needs Node; the browser uses DOMPurify (about 8 kB gzipped, loaded only with the live-data chunk)
 * with the same rules as cli/content/sanitize.ts (shared/content-rules.ts): the same tags, attributes, ids, URL
 * schemes and URL fields, so a page looks the same whether its data came from the build or from the API.
 */

const CONFIG: Config = {
  ALLOWED_TAGS: [...rules.RICH_TEXT_TAGS],
  // DOMPurify allowlists attributes for every tag; the hook below narrows them per tag like sanitize-html.
  ALLOWED_ATTR: [...new Set([...Object.values(rules.RICH_TEXT_ATTRIBUTES).flat(), ...rules.RICH_TEXT_ANY_TAG_ATTRIBUTES])],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // URLs are judged by the shared rule alone (isSafeUrlAttribute, in the hook below), as in the build's
  // cleaner: DOMPurify's own pattern let `\\host`, `/\host` and `data:` images through, which the build
  // refuses. Attributes that are not URL attributes need no URL check: this pattern accepts any value.
  ALLOWED_URI_REGEXP: /(?:)/,
};

let hooked = false;

/** Cleans one rich-text HTML string. */
export function sanitizeRichText(html: string): string {
  if (!hooked) {
    DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
      const allowed = rules.RICH_TEXT_ATTRIBUTES[node.nodeName.toLowerCase()];
      if (!rules.RICH_TEXT_ANY_TAG_ATTRIBUTES.includes(data.attrName) && !allowed?.includes(data.attrName)) data.keepAttr = false;
      if (!rules.isSafeUrlAttribute(data.attrName, data.attrValue)) data.keepAttr = false;
      // Ids and in-page fragments become content ids, as the build makes them (content-ids.ts contentId).
      if (data.attrName === 'id') data.attrValue = contentId(data.attrValue);
      if (data.attrName === 'href' && node.nodeName === 'A') data.attrValue = contentFragment(data.attrValue);
    });
    hooked = true;
  }
  return DOMPurify.sanitize(html, CONFIG);
}

/**
 * Returns a copy of a query result with every rich-text field cleaned and every unsafe URL field
 * blocked, as the build does with its data.
 * `/media/…` URLs are the backend's files, which the build copies into the site; a draft's new image was
 * never copied, so live data points them at the API's origin (`mediaOrigin`) instead.
 */
export function sanitizeLiveData<T>(value: T, mediaOrigin = ''): T {
  return walk(value, mediaOrigin) as T;
}

// --- internal ---

function walk(value: unknown, origin: string): unknown {
  if (typeof value === 'string') return origin && value.startsWith('/media/') ? origin + value : value;
  if (Array.isArray(value)) return value.map((v) => walk(v, origin));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = field(key, v, origin);
  return out;
}

/** A string under a rich-text or URL key by that key's rule, also inside an array under it (as the build's cleaner). */
function field(key: string, v: unknown, origin: string): unknown {
  if (Array.isArray(v)) return v.map((item) => field(key, item, origin));
  if (typeof v !== 'string') return walk(v, origin);
  if (rules.RICH_TEXT_FIELDS.has(key)) return resolveMedia(sanitizeRichText(v), origin);
  return walk(rules.safeUrlField(key, v), origin);
}

function resolveMedia(html: string, origin: string): string {
  return origin ? html.replace(/(\s(?:src|href)=")(\/media\/)/g, `$1${origin}$2`) : html;
}
