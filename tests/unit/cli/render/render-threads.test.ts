import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRenderThreads } from '../../../../cli/render/render-threads.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('render threads', () => {
  // A thread ended while it still loads its modules can abort the whole process (nodejs/node#42501):
  // a build that starts its threads late (once many pages are to render) may end right after.
  it('are ended only once ready, however soon the build closes them', async () => {
    const ready = new WeakSet<Worker>();
    const emit = Worker.prototype.emit;
    vi.spyOn(Worker.prototype, 'emit').mockImplementation(function (this: Worker, event: string | symbol, ...args: unknown[]) {
      if (event === 'message' && (args[0] as { type?: string } | undefined)?.type === 'ready') ready.add(this);
      return emit.call(this, event, ...args);
    });
    const endedReady: boolean[] = [];
    const terminate = Worker.prototype.terminate;
    vi.spyOn(Worker.prototype, 'terminate').mockImplementation(function (this: Worker) {
      endedReady.push(ready.has(this));
      return terminate.call(this);
    });
    const threads = startRenderThreads(2);
    await threads.close();
    expect(endedReady).toEqual([true, true]);
  }, 60_000);

  it('held back until pages come, and never started, are not waited for', async () => {
    const threads = startRenderThreads(1, { afterPages: 100 });
    const spy = vi.spyOn(Worker.prototype, 'terminate');
    await threads.close();
    expect(spy).not.toHaveBeenCalled();
  });
});
