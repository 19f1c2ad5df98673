import { describe, expect, it } from 'vitest';
import { cacheClock } from '../../../../cli/config/environment.ts';

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
