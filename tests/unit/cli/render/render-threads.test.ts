import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Every Worker the render threads construct, in place of a real thread (its loading of React is not what is tested). */
const started = vi.hoisted(() => [] as { posted: unknown[] }[]);
vi.mock('node:worker_threads', () => ({
  Worker: class {
    posted: unknown[] = [];
    constructor() {
      started.push(this);
    }
    on(): void {}
    once(): void {}
    ref(): void {}
    unref(): void {}
    postMessage(message: unknown): void {
      this.posted.push(message);
    }
    terminate(): Promise<number> {
      return Promise.resolve(0);
    }
  },
}));

const { startRenderThreads } = await import('../../../../cli/render/render-threads.ts');

beforeEach(() => void started.splice(0));

describe('render threads held back until a promise settles (a cold build while the client bundles)', () => {
  it('start none before it settles, however much they are asked for, then all of them with the context given meanwhile', async () => {
    let settle!: () => void;
    const bundled = new Promise<void>((resolve) => (settle = resolve));
    const threads = startRenderThreads(2, { notBefore: bundled });
    threads.start();
    expect(threads.hasReady()).toBe(false);
    threads.init({ siteDir: '/tmp/site' } as Parameters<typeof threads.init>[0]);
    await Promise.resolve();
    expect(started).toHaveLength(0);
    settle();
    await bundled;
    await Promise.resolve();
    expect(started).toHaveLength(2);
    for (const worker of started) expect(worker.posted).toEqual([expect.objectContaining({ type: 'init', siteDir: '/tmp/site' })]);
  });

  it('start once it settles, even when it fails (the build then fails on the bundle itself)', async () => {
    const failed = Promise.reject(new Error('bundle failed'));
    const threads = startRenderThreads(1, { notBefore: failed });
    threads.start();
    await failed.catch(() => undefined);
    await Promise.resolve();
    expect(started).toHaveLength(1);
  });

  it('start at once without it, and not when they were never asked to and wait for pages', async () => {
    startRenderThreads(1);
    expect(started).toHaveLength(1);
    startRenderThreads(1, { afterPages: 10, notBefore: Promise.resolve() });
    await Promise.resolve();
    expect(started).toHaveLength(1);
  });

  it('start none once closed while held back', async () => {
    let settle!: () => void;
    const bundled = new Promise<void>((resolve) => (settle = resolve));
    const threads = startRenderThreads(1, { notBefore: bundled });
    threads.start();
    await threads.close();
    settle();
    await bundled;
    await Promise.resolve();
    expect(started).toHaveLength(0);
  });
});
