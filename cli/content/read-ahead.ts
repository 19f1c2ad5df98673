/**
 * Pulls up to `size` items from `source` ahead of the consumer, so that a slow producer (the crawl,
 * waiting on the backend) and a slow consumer (rendering) work at the same time, while memory stays
 * bounded by `size` items (and, given a weight, by their total weight). Order is kept. An error from the source reaches the consumer at the point
 * in the sequence where it happened; the pump starts at once, before the first item is asked for.
 */
export interface ReadAhead<T> extends AsyncIterable<T> {
  /** Stops pulling and waits for the item in progress, e.g. when the build fails elsewhere. */
  close(): Promise<void>;
  /** Pulls up to `size` items ahead from now on (more while the consumer cannot start yet, fewer after). */
  resize(size: number): void;
}

/** A second bound on what is held: items' weights (their bytes, say) add up to at most `max`, past one item. */
export interface ReadAheadWeight<T> {
  of: (item: T) => number;
  max: number;
}

export function readAhead<T>(source: AsyncIterable<T>, initialSize: number, weight?: ReadAheadWeight<T>): ReadAhead<T> {
  let size = initialSize;
  let held = 0;
  const iterator = source[Symbol.asyncIterator]();
  const buffer: T[] = [];
  let finished = false;
  let failure: { error: unknown } | null = null;
  let stopped = false;
  const wake: { consumer?: () => void; producer?: () => void } = {};

  const pump = (async () => {
    try {
      while (!stopped) {
        if (buffer.length >= size || (weight && buffer.length > 0 && held >= weight.max)) {
          await new Promise<void>((resolve) => (wake.producer = resolve));
          continue;
        }
        const next = await iterator.next();
        if (next.done) break;
        if (weight) held += weight.of(next.value);
        buffer.push(next.value);
        wake.consumer?.();
      }
    } catch (error) {
      failure = { error };
    } finally {
      finished = true;
      wake.consumer?.();
    }
  })();

  return {
    async *[Symbol.asyncIterator]() {
      while (true) {
        if (buffer.length > 0) {
          const item = buffer.shift()!;
          if (weight) held -= weight.of(item);
          wake.producer?.();
          yield item;
          continue;
        }
        if (finished) {
          if (failure) throw (failure as { error: unknown }).error;
          return;
        }
        await new Promise<void>((resolve) => (wake.consumer = resolve));
        wake.consumer = undefined;
      }
    },
    async close() {
      stopped = true;
      wake.producer?.();
      await pump;
      await iterator.return?.();
    },
    resize(next) {
      size = next;
      wake.producer?.();
    },
  };
}

/**
 * `run` over `items`, up to `size` calls at a time, the results yielded in the items' order: for I/O
 * consumed one result after the other (files read a few ahead of the code that parses them), with at
 * most `size` results held. A failure reaches the consumer at its item; calls already started are
 * settled before the generator ends, so none fails unheard.
 */
export async function* mapAhead<T, R>(items: readonly T[], size: number, run: (item: T) => Promise<R>): AsyncGenerator<R> {
  const started: Promise<R>[] = [];
  let next = 0;
  try {
    while (next < items.length || started.length > 0) {
      while (started.length < size && next < items.length) {
        const call = run(items[next++]!);
        call.catch(() => undefined);
        started.push(call);
      }
      yield await started.shift()!;
    }
  } finally {
    await Promise.allSettled(started);
  }
}
