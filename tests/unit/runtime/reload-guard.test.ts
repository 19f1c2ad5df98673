import { describe, expect, it } from 'vitest';
import { confirmLoad, reloadOnce, type ReloadGuardEnv } from '../../../runtime/reload-guard.ts';

/** A sessionStorage stand-in; `fail` picks which calls throw, as private modes and full quotas do. */
function storage(fail: { get?: boolean; set?: boolean } = {}): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    key: (i) => [...items.keys()][i] ?? null,
    removeItem: (k) => void items.delete(k),
    getItem: (k) => {
      if (fail.get) throw new DOMException('The operation is insecure.', 'SecurityError');
      return items.get(k) ?? null;
    },
    setItem: (k, v) => {
      if (fail.set) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      items.set(k, v);
    },
  };
}

function env(store: () => Storage, clock: { now: number }): ReloadGuardEnv & { loads: string[] } {
  const loads: string[] = [];
  return { storage: store, now: () => clock.now, assign: (url) => void loads.push(url), loads };
}

describe('the reload guard', () => {
  it('loads a target at most once per 10 s once its load succeeded, then again after the window', () => {
    const clock = { now: 1_000_000 };
    const s = storage();
    const e = env(() => s, clock);
    expect(reloadOnce('/news/a', e)).toBe(true);
    confirmLoad('/news/a', e);
    // The window is ten seconds, written out: a test that reads the constant would follow it if it shrank.
    clock.now += 9_999;
    expect(reloadOnce('/news/a?x=1', e)).toBe(false);
    expect(reloadOnce('/news/b', e)).toBe(true);
    clock.now += 1;
    expect(reloadOnce('/news/a', e)).toBe(true);
    expect(e.loads).toEqual(['/news/a', '/news/b', '/news/a']);
  });

  it('never reloads a target again while its last automatic load has not succeeded, however slowly the failure recurs', () => {
    const clock = { now: 1_000_000 };
    const s = storage();
    const e = env(() => s, clock);
    expect(reloadOnce('/courses', e)).toBe(true);
    // A chunk that hangs 15 s and then fails, an API that gives up after 40 s, an hour later: no loop.
    for (const wait of [15_000, 40_000, 3_600_000]) {
      clock.now += wait;
      expect(reloadOnce('/courses', e)).toBe(false);
    }
    expect(e.loads).toEqual(['/courses']);
    // Once a load of the path succeeds, a later failure may reload it again (after the window).
    confirmLoad('/courses', e);
    confirmLoad('/courses', e);
    clock.now += 10_000;
    expect(reloadOnce('/courses', e)).toBe(true);
    expect(e.loads).toEqual(['/courses', '/courses']);
  });

  it.each([
    ['sessionStorage itself throws on access', () => storage({}), true],
    ['getItem throws', () => storage({ get: true }), false],
    ['setItem throws (quota exceeded)', () => storage({ set: true }), false],
  ])('never reloads when %s: without a stored guard a reload could loop', (_name, make, throwOnAccess) => {
    const clock = { now: 1_000_000 };
    const s = make();
    const e = env(() => {
      if (throwOnAccess) throw new DOMException('The operation is insecure.', 'SecurityError');
      return s;
    }, clock);
    for (let i = 0; i < 5; i++) {
      expect(reloadOnce('/news/a', e)).toBe(false);
      clock.now += 20_000;
    }
    expect(e.loads).toEqual([]);
  });
});

describe('the reload guard window', () => {
  it('is ten seconds after a successful load: none at 1 s, 5 s or 9.999 s, one at 10 s', () => {
    const clock = { now: 1_000_000 };
    const s = storage();
    const e = env(() => s, clock);
    expect(reloadOnce('/news/a', e)).toBe(true);
    confirmLoad('/news/a', e);
    for (const at of [1_000, 5_000, 9_999]) {
      clock.now = 1_000_000 + at;
      expect(reloadOnce('/news/a', e), `${at} ms after`).toBe(false);
    }
    clock.now = 1_010_000;
    expect(reloadOnce('/news/a', e)).toBe(true);
    expect(e.loads).toEqual(['/news/a', '/news/a']);
  });
});

describe('confirming a load', () => {
  it('keeps the window when a load is confirmed twice, and confirms nothing for a path never reloaded', () => {
    const clock = { now: 1_000_000 };
    const s = storage();
    const e = env(() => s, clock);
    confirmLoad('/never', e);
    expect(s.length).toBe(0);
    expect(reloadOnce('/news/a', e)).toBe(true);
    confirmLoad('/news/a', e);
    confirmLoad('/news/a', e);
    clock.now += 1_000;
    expect(reloadOnce('/news/a', e)).toBe(false);
    expect(e.loads).toEqual(['/news/a']);
  });
});
