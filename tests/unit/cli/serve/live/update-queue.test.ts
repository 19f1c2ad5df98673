import { describe, expect, it } from 'vitest';
import { createUpdateQueue, type Batch } from '../../../../../cli/serve/live/update-queue.ts';

const tick = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** A run that takes `ms` and records what it took; fails while `failing()` says so. */
function recorder(ms: number, failing: () => boolean = () => false) {
  const batches: Batch[] = [];
  let running = 0;
  let most = 0;
  const run = async (batch: Batch): Promise<void> => {
    batches.push(batch);
    running++;
    most = Math.max(most, running);
    await tick(ms);
    running--;
    if (failing()) throw new Error('the storage is down');
  };
  return { run, batches, most: () => most };
}

describe("site live's update queue", () => {
  it('runs one update at a time, and takes every change that came during an update into the next one', async () => {
    const r = recorder(60);
    const queue = createUpdateQueue(r.run, { debounceMs: 5 });
    queue.add('first', 1000);
    await tick(20);
    for (let i = 0; i < 100; i++) queue.add(`burst ${i}`, 2000 + i);
    expect(queue.depth).toBe(100);
    await queue.idle();
    expect(r.most()).toBe(1);
    expect(r.batches.map((b) => b.changes)).toEqual([1, 100]);
    expect(r.batches[1]).toMatchObject({ firstAtMs: 2000, reasons: ['burst 0', 'burst 1', 'burst 2'], attempt: 0 });
    expect(queue.depth).toBe(0);
  });

  it('starts an update at once when none runs: an edit waits for nothing but its own update', async () => {
    const r = recorder(5);
    const queue = createUpdateQueue(r.run);
    queue.add('edit');
    // Timers fire in the order they fall due: the queue's, set first for sooner, before this one.
    await tick(5);
    expect(r.batches.map((b) => b.reasons)).toEqual([['edit']]);
    await queue.idle();
  });

  it('waits the quiet time after a change when given one, so changes saved together go together', async () => {
    const r = recorder(5);
    const queue = createUpdateQueue(r.run, { debounceMs: 40 });
    queue.add('a');
    await tick(10);
    queue.add('b');
    await queue.idle();
    expect(r.batches.map((b) => b.changes)).toEqual([2]);
  });

  it('tries a failed update again with its changes, after a delay that doubles up to the bound, and with newer changes joined', async () => {
    let failures = 3;
    const r = recorder(1, () => failures-- > 0);
    const delays: number[] = [];
    const queue = createUpdateQueue(r.run, { debounceMs: 1, retryMs: 20, maxRetryMs: 50, onFailure: (_e, _b, ms) => delays.push(ms) });
    queue.add('edit', 500);
    await tick(5);
    queue.add('another edit', 700);
    await queue.idle();
    expect(delays).toEqual([20, 40, 50]);
    expect(r.batches.map((b) => [b.changes, b.attempt, b.firstAtMs])).toEqual([
      [1, 0, 500],
      [2, 1, 500],
      [2, 2, 500],
      [2, 3, 500],
    ]);
  });

  it('does not start an update sooner for a change that comes while it waits to retry', async () => {
    let failing = true;
    const r = recorder(1, () => failing);
    const queue = createUpdateQueue(r.run, { debounceMs: 1, retryMs: 100 });
    queue.add('edit');
    await tick(20);
    failing = false;
    queue.add('newer');
    await tick(30);
    expect(r.batches).toHaveLength(1);
    // While it waits to retry, the failed change and the newer one are counted as waiting (site live's metric).
    expect(queue.depth).toBe(2);
    expect(queue.running).toBe(false);
    await queue.idle();
    expect(r.batches).toHaveLength(2);
  });

  it('on stop, lets the running update end and starts none after it', async () => {
    const r = recorder(50);
    const queue = createUpdateQueue(r.run, { debounceMs: 1 });
    queue.add('edit');
    await tick(10);
    queue.add('while it runs');
    const stopped = queue.stop();
    expect(queue.running).toBe(true);
    await stopped;
    expect(queue.running).toBe(false);
    queue.add('after the stop');
    await tick(20);
    expect(r.batches).toHaveLength(1);
  });
});
