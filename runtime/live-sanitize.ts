import DOMPurify, { type Config } from 'dompurify';

/**
 * Rich text that comes live from the API (editor preview, payload fallback) is as untrusted as the HTML
 * the build cleans (DESIGN.md decision 6), and pages render it as HTML. The build uses sanitize-html,
 * which needs Node; the browser uses DOMPurify (about 8 kB gzipped, loaded only with the live-data chunk)
 * with the same allowlist as cli/sanitize.ts: the same tags, attributes and URL schemes, so a page looks
 * the same whether its data came from the build or from the API.
 */

/** Fields holding HTML, as in cli/sanitize.ts. */
const RICH_TEXT_FIELDS: ReadonlySet<string> = new Set(['body']);

const CONFIG: Config = {
  ALLOWED_TAGS: ['p', 'br', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'b', 'i', 'blockquote', 'code', 'pre', 'figure', 'figcaption', 'img', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'sup', 'sub', 'abbr', 'cite'],
  // DOMPurify allowlists attributes for every tag; the hook below narrows them per tag like sanitize-html.
  ALLOWED_ATTR: ['href', 'title', 'rel', 'src', 'alt', 'width', 'height', 'loading', 'scope', 'id', 'lang'],
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  // http(s), mailto and tel, or a relative URL; never protocol-relative (`//host`) and never another scheme.
  ALLOWED_URI_REGEXP: /^(?:(?:https?|mailto|tel):|\/(?!\/)|[^:/?#]+(?:[/?#]|$)|[?#])/i,
};

const ATTRIBUTES_BY_TAG: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'title', 'rel'],
  img: ['src', 'alt', 'width', 'height', 'loading'],
  abbr: ['title'],
  th: ['scope'],
};
const ANY_TAG = new Set(['id', 'lang']);

let hooked = false;

/** Cleans one rich-text HTML string. */
export function sanitizeRichText(html: string): string {
  if (!hooked) {
    DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
      const allowed = ATTRIBUTES_BY_TAG[node.nodeName.toLowerCase()];
      if (!ANY_TAG.has(data.attrName) && !allowed?.includes(data.attrName)) data.keepAttr = false;
    });
    hooked = true;
  }
  return DOMPurify.sanitize(html, CONFIG);
}

/**
 * Returns a copy of a query result with every rich-text field cleaned, as the build does with its data.
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
  for (const [key, v] of Object.entries(value)) {
    out[key] = RICH_TEXT_FIELDS.has(key) && typeof v === 'string' ? resolveMedia(sanitizeRichText(v), origin) : walk(v, origin);
  }
  return out;
}

function resolveMedia(html: string, origin: string): string {
  return origin ? html.replace(/(\s(?:src|href)=")(\/media\/)/g, `$1${origin}$2`) : html;
}
