import { describe, expect, it } from 'vitest';
import {
  growingPercent,
  HEAP_GROWING_PERCENT,
  holdingPages,
  MIN_GROWTH_BYTES,
  renderingPages,
  SMALL_HEAP_BYTES,
} from '../../../../cli/config/heap-growth.js';

const MB = 1024 * 1024;

describe("the build's heap growth while pages render", () => {
  it('lets a small heap grow by at least 48 MB before a full collection, at most doubling', () => {
    expect(MIN_GROWTH_BYTES).toBe(48 * MB);
    // 40 MB live (a 10,000-page build while it renders): 120% would be wanted, 100% is the most.
    expect(growingPercent(40 * MB)).toBe(100);
    expect(growingPercent(48 * MB)).toBe(100);
    // 64 MB: 75%; 80 MB: 60%, each enough for 48 MB.
    expect(growingPercent(64 * MB)).toBe(75);
    expect(growingPercent(80 * MB)).toBe(60);
    expect((growingPercent(90 * MB) / 100) * 90 * MB).toBeGreaterThanOrEqual(48 * MB);
  });

  it('keeps 20% from 96 MB on, as a large build had before', () => {
    expect(HEAP_GROWING_PERCENT).toBe(20);
    expect(SMALL_HEAP_BYTES).toBe(96 * MB);
    expect(growingPercent(96 * MB)).toBe(20);
    expect(growingPercent(200 * MB)).toBe(20);
    expect(growingPercent(4096 * MB)).toBe(20);
  });

  it('never asks for less than 20% or more than 100%, whatever the heap reports', () => {
    for (const used of [0, 1, 1000, 10 * MB, 95 * MB, 1e12]) {
      expect(growingPercent(used)).toBeGreaterThanOrEqual(20);
      expect(growingPercent(used)).toBeLessThanOrEqual(100);
      expect(growingPercent(used) % 5).toBe(0);
    }
  });

  it('leaves the heap alone in a process `site` did not start', () => {
    // No policy was set in this process (bin/site.js sets it): holding and rendering change nothing, and releasing twice is safe.
    for (const hold of [holdingPages, renderingPages]) {
      const release = hold();
      expect(() => {
        release();
        release();
      }).not.toThrow();
    }
  });
});
