/**
 * Seeded randomness for the sample and scaled content. Everything the backend serves must be the same on
 * every run (the site build derives its build id from content), so nothing here reads Math.random or the clock.
 */

/** A deterministic pseudo-random source. */
export interface Random {
  /** Next float in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T;
  /** `count` distinct elements of `items` (all of them when count >= length), in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  /** True with probability `p`. */
  chance(p: number): boolean;
}

/**
 * Creates a mulberry32 generator: tiny, fast and good enough for picking phrases; the same seed always gives
 * the same sequence.
 * @example createRandom(hashString('news')).pick(['a', 'b'])
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      return pickAt(items, int(0, items.length - 1));
    },
    sample<T>(items: readonly T[], count: number): T[] {
      const copy = items.slice();
      // Partial Fisher-Yates: only the first `count` positions need shuffling.
      const n = Math.min(count, copy.length);
      for (let i = 0; i < n; i++) {
        const j = int(i, copy.length - 1);
        const a = copy[i] as T;
        copy[i] = copy[j] as T;
        copy[j] = a;
      }
      return copy.slice(0, n);
    },
    chance(p: number): boolean {
      return next() < p;
    },
  };
}

/** FNV-1a hash of a string to an unsigned 32-bit integer; used to seed generators from slugs and names. */
export function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Element at `index` modulo the list length. Lists here are non-empty constants, so the modulo makes the
 * lookup total and keeps `noUncheckedIndexedAccess` honest without a cast at every call site.
 */
export function pickAt<T>(items: readonly T[], index: number): T {
  if (items.length === 0) throw new Error('pickAt: empty list');
  const i = ((index % items.length) + items.length) % items.length;
  return items[i] as T;
}
