import { TOKEN_COOKIE } from './live-config.ts';

/**
 * Removes credentials from anything that is about to leave the browser for error reporting: values of
 * keys that name credentials (Authorization and Cookie headers, tokens, passwords), `Bearer …` strings,
 * the token cookie in cookie strings, and every occurrence of the visitor's own token, wherever it
 * hides (an error message, a URL, a console breadcrumb).
 */

export const FILTERED = '[Filtered]';

const SECRET_KEY =
  /^(?:authorization|proxy-authorization|cookie|set-cookie|x-auth-token|token|access_?token|id_?token|refresh_?token|password|secret)$/i;
const BEARER = /\b(Bearer)\s+[^\s"',;]+/gi;
const COOKIE = new RegExp(`(${TOKEN_COOKIE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=)[^;\\s"']*`, 'g');
const MAX_DEPTH = 20;

/** A deep copy of `value` without credentials; `secrets` are literal strings (the token) to remove too. */
export function scrubSecrets<T>(value: T, secrets: readonly string[] = []): T {
  const literals = secrets.filter((s) => s.length >= 4).flatMap((s) => [...new Set([s, encodeURIComponent(s)])]);
  return walk(value, literals, 0, new WeakSet()) as T;
}

// --- internal ---

function walk(value: unknown, secrets: readonly string[], depth: number, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return scrubString(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  // Deeper than any event the SDK sends: rather lose it than send it unread.
  if (depth > MAX_DEPTH || seen.has(value)) return FILTERED;
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => walk(v, secrets, depth + 1, seen));
  // Console breadcrumbs keep the raw arguments, errors among them.
  if (value instanceof Error)
    return { name: value.name, message: scrubString(value.message, secrets), stack: scrubString(value.stack ?? '', secrets) };
  // Other class instances (dates, DOM nodes) carry no credentials of ours and are serialised by the SDK.
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEY.test(key) && v !== undefined && v !== null ? FILTERED : walk(v, secrets, depth + 1, seen);
  }
  return out;
}

function scrubString(text: string, secrets: readonly string[]): string {
  let out = text.replace(BEARER, `$1 ${FILTERED}`).replace(COOKIE, `$1${FILTERED}`);
  for (const secret of secrets) out = out.split(secret).join(FILTERED);
  return out;
}
