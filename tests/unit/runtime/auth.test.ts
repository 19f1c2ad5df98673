import { describe, expect, it } from 'vitest';
import { createAuth, readTokenCookie, tokenCookie, type CookieJar } from '../../../runtime/auth.ts';

/** A cookie jar that stores cookies the way a browser does for this purpose: by name, deleted by Max-Age=0. */
function fakeJar(initial: Record<string, string> = {}, accepts = true): CookieJar & { written: string[] } {
  const cookies = new Map(Object.entries(initial));
  const written: string[] = [];
  return {
    written,
    read: () => [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    write(cookie) {
      written.push(cookie);
      if (!accepts) return;
      const [pair = ''] = cookie.split(';');
      const eq = pair.indexOf('=');
      if (/;\s*Max-Age=0/i.test(cookie)) cookies.delete(pair.slice(0, eq));
      else cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    },
  };
}

function setup(jar: CookieJar) {
  const events: string[] = [];
  const auth = createAuth(jar, () => events.push('reset'));
  auth.subscribe(() => events.push('changed'));
  return { auth, events };
}

describe('token auth', () => {
  it('stores the token in apollo:default.token for 7 days, Secure, SameSite=Lax, Path=/', () => {
    expect(tokenCookie('abc/def')).toBe('apollo:default.token=abc%2Fdef; Max-Age=604800; Path=/; SameSite=Lax; Secure');
    expect(tokenCookie(null)).toBe('apollo:default.token=; Path=/; SameSite=Lax; Secure; Max-Age=0');
  });

  it('reads the token from the cookie, URI-decoded, among other cookies', () => {
    expect(readTokenCookie('theme=dark; apollo:default.token=abc%2Fdef; other=1')).toBe('abc/def');
    expect(readTokenCookie('apollo:default.tokenizer=x; theme=dark')).toBeNull();
    expect(readTokenCookie('')).toBeNull();
  });

  it('takes the token from the registered hook first, and from the cookie when the hook has none', () => {
    const { auth } = setup(fakeJar({ 'apollo:default.token': 'from-cookie' }));
    expect(auth.getToken()).toBe('from-cookie');
    let hooked: string | null = 'from-hook';
    auth.setTokenHook(() => hooked);
    expect(auth.getToken()).toBe('from-hook');
    hooked = null;
    expect(auth.getToken()).toBe('from-cookie');
    auth.setTokenHook(null);
    expect(setup(fakeJar()).auth.getToken()).toBeNull();
  });

  it('login writes the cookie and resets the cache before anyone hears of the change', () => {
    const jar = fakeJar();
    const { auth, events } = setup(jar);
    auth.login('editor-token');
    expect(jar.written).toEqual([tokenCookie('editor-token')]);
    expect(auth.getToken()).toBe('editor-token');
    expect(events).toEqual(['reset', 'changed']);
  });

  it('login fails loudly when the browser refuses the Secure cookie, and changes nothing', () => {
    const { auth, events } = setup(fakeJar({}, false));
    expect(() => auth.login('editor-token')).toThrow('The browser refused the apollo:default.token cookie');
    expect(events).toEqual([]);
  });

  it('logout clears the cookie and resets the cache', () => {
    const jar = fakeJar({ 'apollo:default.token': 'editor-token' });
    const { auth, events } = setup(jar);
    expect(auth.logout()).toBe(true);
    expect(jar.written).toEqual([tokenCookie(null)]);
    expect(auth.getToken()).toBeNull();
    expect(events).toEqual(['reset', 'changed']);
  });

  it('logout without a cookie does nothing: no cookie written, no cache reset', () => {
    const jar = fakeJar();
    const { auth, events } = setup(jar);
    auth.setTokenHook(() => 'from-hook');
    expect(auth.logout()).toBe(false);
    expect(jar.written).toEqual([]);
    expect(events).toEqual([]);
  });
});
