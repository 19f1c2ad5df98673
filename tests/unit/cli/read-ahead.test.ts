import { describe, expect, it } from 'vitest';
import { readAhead } from '../../../cli/content/read-ahead.ts';

/** A source that counts how far it has been pulled, and can fail after `failAfter` items. */
function counting(total: number, failAfter = Infinity): { source: AsyncIterable<number>; pulled: () => number } {
  let pulled = 0;
  return {
    pulled: () => pulled,
    source: (async function* () {
      for (let i = 0; i < total; i++) {
        if (i === failAfter) throw new Error(`source failed at ${i}`);
        pulled++;
        await new Promise((resolve) => setTimeout(resolve, 0));
        yield i;
      }
    })(),
  };
}

const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30));

describe('readAhead', () => {
  it('starts pulling before anyone asks, and stops at its size until the consumer takes items', async () => {
    const { source, pulled } = counting(100);
    const ahead = readAhead(source, 5);
    await settle();
    expect(pulled()).toBe(5);
    const seen: number[] = [];
    for await (const n of ahead) {
      seen.push(n);
      if (seen.length === 3) break;
    }
    await settle();
    expect(pulled()).toBeLessThanOrEqual(3 + 5 + 1);
    await ahead.close();
  });

  it('hands on every item in order', async () => {
    const seen: number[] = [];
    for await (const n of readAhead(counting(50).source, 4)) seen.push(n);
    expect(seen).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('delivers the items before a failure, then the failure', async () => {
    const seen: number[] = [];
    const run = async (): Promise<void> => {
      for await (const n of readAhead(counting(10, 6).source, 3)) seen.push(n);
    };
    await expect(run()).rejects.toThrow('source failed at 6');
    expect(seen).toEqual([0, 1, 2, 3, 4, 5]);
  });
});
