import { describe, expect, it } from 'vitest';
import { mapAhead, readAhead } from '../../../../cli/content/read-ahead.ts';

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

/** Waits until `count` stops changing (the pump is parked), at most a second. */
async function quiet(count: () => number): Promise<number> {
  for (let i = 0, last = -1; i < 100; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    if (count() === last) break;
    last = count();
  }
  return count();
}

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

  it('pulls further when resized up, and back to its size once resized down', async () => {
    const { source, pulled } = counting(100);
    const ahead = readAhead(source, 40);
    expect(await quiet(pulled)).toBe(40);
    ahead.resize(5);
    const seen: number[] = [];
    for await (const n of ahead) {
      seen.push(n);
      if (seen.length === 40) break;
    }
    // The 40 pulled while it was larger, then no more than the smaller size ahead of the consumer.
    expect(await quiet(pulled)).toBeLessThanOrEqual(40 + 5 + 1);
    ahead.resize(60);
    expect(await quiet(pulled)).toBe(100);
    await ahead.close();
  });

  it('holds back once the items held weigh their bound, whatever their number, but always one', async () => {
    const { source, pulled } = counting(100);
    const ahead = readAhead(source, 50, { of: (n) => (n < 3 ? 10 : 1000), max: 25 });
    // 10 + 10 weigh 20, under 25: the third (10) makes 30, and the pump stops there.
    expect(await quiet(pulled)).toBe(3);
    const seen: number[] = [];
    for await (const n of ahead) {
      seen.push(n);
      if (seen.length === 3) break;
    }
    // Nothing held: one heavy item is taken even though it alone weighs more than the bound.
    expect(await quiet(pulled)).toBeLessThanOrEqual(5);
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

describe('mapAhead', () => {
  it("runs up to its size at once, answers in the items' order whatever order the calls end in", async () => {
    let running = 0;
    let most = 0;
    const items = Array.from({ length: 40 }, (_, i) => i);
    const out: number[] = [];
    for await (const n of mapAhead(items, 4, async (i) => {
      running++;
      most = Math.max(most, running);
      // Later items end first: order must come from the items, not from the calls.
      await new Promise((resolve) => setTimeout(resolve, (40 - i) % 7));
      running--;
      return i * 2;
    }))
      out.push(n);
    expect(out).toEqual(items.map((i) => i * 2));
    expect(most).toBe(4);
  });

  it('gives a failure at its item, and every call already started has settled when the loop ends', async () => {
    const settled = new Set<number>();
    const seen: number[] = [];
    const run = async (): Promise<void> => {
      for await (const n of mapAhead([0, 1, 2, 3, 4, 5], 3, async (i) => {
        await new Promise((resolve) => setTimeout(resolve, i === 2 ? 1 : 10));
        settled.add(i);
        if (i === 2) throw new Error('item 2 failed');
        return i;
      }))
        seen.push(n);
    };
    await expect(run()).rejects.toThrow('item 2 failed');
    expect(seen).toEqual([0, 1]);
    // Items 3 and 4 had started beside item 2: the generator waited for them before it ended.
    expect([...settled].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});
