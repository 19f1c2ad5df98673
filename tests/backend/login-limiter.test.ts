import { describe, expect, it } from 'vitest';
import { clientKey, createLoginLimiter, LOGIN_LIMIT } from '../../backend/guards.ts';

/** The login limiter's keys and its memory (backend/guards.ts); the limits themselves are tested against the real backend in hardening.test.ts. */
describe('the login limiter', () => {
  it('counts an IPv6 /64 as one client, an IPv4-mapped address as its IPv4 one', () => {
    expect(clientKey('2001:db8:1:2::1')).toBe(clientKey('2001:db8:1:2:ffff:ffff:ffff:fffe'));
    expect(clientKey('2001:0db8:0001:0002:0:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
  });

  it('refuses a client rotating through its /64 after the per-client limit', () => {
    const limiter = createLoginLimiter(() => 0);
    for (let i = 0; i < LOGIN_LIMIT.client.failures; i++) {
      limiter.check(`2001:db8::${i.toString(16)}`, `a${i}@example.org`);
      limiter.failed(`2001:db8::${i.toString(16)}`, `a${i}@example.org`);
    }
    expect(() => limiter.check('2001:db8::ffff', 'b@example.org')).toThrow(/from this address/);
  });

  it('holds no more than its bound of clients and accounts however many there are, and a window ends', () => {
    let now = 0;
    const limiter = createLoginLimiter(() => now);
    for (let i = 0; i < 3 * LOGIN_LIMIT.tracked; i++)
      limiter.failed(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, `user-${i}@example.org`);
    expect(limiter.size()).toEqual({ clients: LOGIN_LIMIT.tracked, accounts: LOGIN_LIMIT.tracked });
    for (let i = 0; i < LOGIN_LIMIT.account.failures; i++) limiter.failed(`192.0.2.${i}`, 'editor@institute.example');
    expect(() => limiter.check('198.51.100.1', 'editor@institute.example')).toThrow(/for this account/);
    now += LOGIN_LIMIT.account.windowMs;
    expect(() => limiter.check('198.51.100.1', 'editor@institute.example')).not.toThrow();
  });
});
