import sanitizeHtml from 'sanitize-html';

/**
 * Rich text from the backend is untrusted HTML (DESIGN.md decision 6). Every field named `body`
 * (the rich-text fields of site/schema.graphql) is cleaned with an allowlist before it is rendered
 * or written into a payload: no scripts, no event handlers, no iframes, no javascript: URLs.
 */

export const RICH_TEXT_FIELDS: ReadonlySet<string> = new Set(['body']);

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: ['p', 'br', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'strong', 'em', 'b', 'i', 'blockquote', 'code', 'pre', 'figure', 'figcaption', 'img', 'hr', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'sup', 'sub', 'abbr', 'cite'],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'width', 'height', 'loading'],
    abbr: ['title'],
    th: ['scope'],
    '*': ['id', 'lang'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** Cleans one rich-text HTML string. */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** Returns a copy of a query result with every rich-text field cleaned. */
export function sanitizeData<T>(value: T): T {
  return walk(value) as T;
}

// --- internal ---

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = RICH_TEXT_FIELDS.has(key) && typeof v === 'string' ? sanitizeRichText(v) : walk(v);
  }
  return out;
}
