import { describe, expect, it } from 'vitest';
import { cacheClock, liveWebhookSecret } from '../../../../cli/config/environment.ts';

/** The environment's test hooks are honoured under the test runner only: left in a CI job, they change nothing. */
describe('SITE_CACHE_NOW', () => {
  it('is the time pruning takes as now under the test runner, and refused there when it is no time', () => {
    expect(cacheClock({ VITEST: 'true', SITE_CACHE_NOW: '1790000000000' })).toBe(1790000000000);
    expect(() => cacheClock({ VITEST: 'true', SITE_CACHE_NOW: 'tomorrow' })).toThrow(/SITE_CACHE_NOW/);
  });

  it('is ignored outside the test runner, whatever it holds: the prune keeps to the clock', () => {
    expect(cacheClock({ SITE_CACHE_NOW: '99999999999999' })).toBeUndefined();
    expect(cacheClock({ SITE_CACHE_NOW: 'tomorrow' })).toBeUndefined();
    expect(cacheClock({ VITEST: 'true' })).toBeUndefined();
  });
});

describe('SITE_LIVE_SECRET', () => {
  const secret = '0123456789abcdef0123456789abcdef';

  it('is the secret without the newline a secret file ends with, or the spaces around it', () => {
    expect(liveWebhookSecret({ SITE_LIVE_SECRET: `${secret}\n` })).toBe(secret);
    expect(liveWebhookSecret({ SITE_LIVE_SECRET: `  ${secret}\r\n` })).toBe(secret);
    expect(liveWebhookSecret({})).toBeNull();
  });

  it('is refused empty (an empty secret file) or short, saying how to make one, never what it holds', () => {
    for (const value of ['', '\n', '   '])
      expect(() => liveWebhookSecret({ SITE_LIVE_SECRET: value }), JSON.stringify(value)).toThrow(
        /SITE_LIVE_SECRET to be a secret of at least 32 characters.*unset it to turn the webhook off.*got '\(empty\)'/,
      );
    // 31 characters and a newline: short, once the newline is not counted.
    expect(() => liveWebhookSecret({ SITE_LIVE_SECRET: `${secret.slice(1)}\n` })).toThrow(/\(31 characters\)/);
    expect(() => liveWebhookSecret({ SITE_LIVE_SECRET: 'short-secret' })).toThrow(/SITE_LIVE_SECRET/);
    try {
      liveWebhookSecret({ SITE_LIVE_SECRET: 'short-secret' });
    } catch (error) {
      expect((error as Error).message).not.toContain('short-secret');
    }
  });
});
