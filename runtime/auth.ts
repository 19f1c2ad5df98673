/**
 * Token auth for the GraphQL client `default` (docs/runtime.md, "Token" and "Login and logout";
 * @nuxtjs/apollo's rules): the token comes from a hook the site registers, else from the cookie
 * `apollo:default.token`. Login writes that cookie and resets the client's cache; logout clears it and
 * resets the cache; logout without a cookie does nothing.
 */

import { TOKEN_COOKIE } from './live-config.ts';

export { TOKEN_COOKIE };

/** Seven days, the reference's cookie lifetime; the embedded backend's tokens live as long. */
export const TOKEN_MAX_AGE_SECONDS = 604_800;

/** Where the cookie lives: `document.cookie` in the browser, a fake in tests. */
export interface CookieJar {
  /** The `name=value; name=value` string of the cookies visible to the page. */
  read(): string;
  /** Sets one cookie from a `Set-Cookie`-style string. */
  write(cookie: string): void;
}

/** Returns the token to send, or null/undefined to fall back to the cookie. */
export type TokenHook = () => string | null | undefined;

export interface Auth {
  /** The token of the hook, else of the cookie, else null. */
  getToken(): string | null;
  /** The token in the cookie alone, or null. */
  cookieToken(): string | null;
  /** Registers the site's token hook (null removes it); its answer wins over the cookie. */
  setTokenHook(hook: TokenHook | null): void;
  /** Stores the token in the cookie and resets the GraphQL cache. Throws when the browser refused the cookie. */
  login(token: string): void;
  /** Clears the cookie and resets the GraphQL cache; false (and nothing happens) when there was no cookie. */
  logout(): boolean;
  /** Called after every login and effective logout. */
  subscribe(listener: () => void): () => void;
}

/** The `Set-Cookie`-style string that stores `token`, or that deletes the cookie when `token` is null. */
export function tokenCookie(token: string | null): string {
  const attributes = '; Path=/; SameSite=Lax; Secure';
  return token === null
    ? `${TOKEN_COOKIE}=${attributes}; Max-Age=0`
    : `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Max-Age=${TOKEN_MAX_AGE_SECONDS}${attributes}`;
}

/** The token stored in a `document.cookie` string, URI-decoded; null when there is none. */
export function readTokenCookie(cookies: string): string | null {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== TOKEN_COOKIE) continue;
    const raw = part.slice(eq + 1).trim();
    if (!raw) return null;
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/** Creates the auth state over a cookie jar; `resetCache` empties the GraphQL client's cache. */
export function createAuth(jar: CookieJar, resetCache: () => void): Auth {
  let hook: TokenHook | null = null;
  const listeners = new Set<() => void>();
  const changed = (): void => {
    // The cache goes first: a listener that queries again must not be answered with the old identity's data.
    resetCache();
    listeners.forEach((l) => l());
  };
  const cookieToken = (): string | null => readTokenCookie(jar.read());
  return {
    getToken: () => hook?.() || cookieToken(),
    cookieToken,
    setTokenHook(next) {
      hook = next;
    },
    login(token) {
      jar.write(tokenCookie(token));
      if (cookieToken() !== token) {
        throw new Error(
          `The browser refused the ${TOKEN_COOKIE} cookie: it is Secure, so the site must be served over HTTPS (or from localhost).`,
        );
      }
      changed();
    },
    logout() {
      if (cookieToken() === null) return false;
      jar.write(tokenCookie(null));
      changed();
      return true;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
