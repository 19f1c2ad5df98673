/**
 * The changes `site live` has noticed, turned into updates one at a time: changes that arrive while an
 * update runs wait and go together into the next one, so a burst of edits is a few updates, not one
 * each. A failed update is tried again with its changes, after a delay that doubles up to a bound, so an
 * outage is neither hammered nor forgotten.
 */

/** The changes one update takes. */
export interface Batch {
  /** Changes noticed (webhook calls, feed answers with changes). */
  changes: number;
  /** When the first of them was noticed (ms since the epoch): an update's lag is counted from here. */
  firstAtMs: number;
  /** What they were, for the log: at most a few. */
  reasons: string[];
  /** Failed attempts of these changes before this one. */
  attempt: number;
}

export interface UpdateQueueOptions {
  /**
   * Time after a change before an idle queue starts an update, for changes saved together to go together.
   * @default 0: at once (the next turn of the event loop). An update asks the feed for every change since
   * the last build when it starts, so changes saved together mostly go in it anyway, and a call about one
   * that came too late makes an update that finds nothing to do in a few milliseconds, not a second build.
   */
  debounceMs?: number;
  /** Delay before the first retry of a failed update, doubling per failure. @default 1000 */
  retryMs?: number;
  /** The longest delay between retries. @default 60000 */
  maxRetryMs?: number;
  now?: () => number;
  /** Told of each failure and when the update is tried again. */
  onFailure?: (error: unknown, batch: Batch, retryInMs: number) => void;
}

export interface UpdateQueue {
  /** A change noticed at `atMs`. */
  add(reason: string, atMs?: number): void;
  /** Changes noticed and not yet taken by an update. */
  readonly depth: number;
  readonly running: boolean;
  /** Resolves once no change waits and no update runs. */
  idle(): Promise<void>;
  /** Takes no more changes and ends once the running update (if any) has ended; what waits is left to the next start. */
  stop(): Promise<void>;
}

const REASONS_KEPT = 3;

export function createUpdateQueue(run: (batch: Batch) => Promise<void>, options: UpdateQueueOptions = {}): UpdateQueue {
  const { debounceMs = 0, retryMs = 1_000, maxRetryMs = 60_000, now = Date.now, onFailure = () => undefined } = options;
  let waiting: Batch | null = null;
  let failures = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let current: Promise<void> | null = null;
  let idleWaiters: (() => void)[] = [];

  const settleIdle = (): void => {
    if (waiting || current || timer) return;
    for (const resolve of idleWaiters) resolve();
    idleWaiters = [];
  };
  const merge = (into: Batch | null, batch: Batch): Batch =>
    into
      ? {
          changes: into.changes + batch.changes,
          firstAtMs: Math.min(into.firstAtMs, batch.firstAtMs),
          reasons: [...into.reasons, ...batch.reasons].slice(0, REASONS_KEPT),
          attempt: Math.max(into.attempt, batch.attempt),
        }
      : batch;
  const schedule = (delayMs: number): void => {
    if (stopped || current || timer) return;
    timer = setTimeout(() => {
      timer = null;
      start();
    }, delayMs);
  };
  const start = (): void => {
    if (stopped || current || !waiting) return settleIdle();
    const batch = waiting;
    waiting = null;
    current = run(batch)
      .then(
        () => {
          failures = 0;
        },
        (error: unknown) => {
          failures++;
          const delay = Math.min(retryMs * 2 ** (failures - 1), maxRetryMs);
          // The failed changes wait again, before any that came meanwhile (they are older).
          const failed = { ...batch, attempt: batch.attempt + 1 };
          waiting = waiting ? merge(failed, waiting) : failed;
          onFailure(error, batch, delay);
          return delay;
        },
      )
      .then((retryIn) => {
        current = null;
        if (waiting) schedule(typeof retryIn === 'number' ? retryIn : 0);
        settleIdle();
      });
  };

  return {
    add(reason, atMs = now()) {
      if (stopped) return;
      waiting = merge(waiting, { changes: 1, firstAtMs: atMs, reasons: [reason], attempt: 0 });
      schedule(debounceMs);
    },
    get depth() {
      return waiting?.changes ?? 0;
    },
    get running() {
      return current !== null;
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
      await current;
      waiting = null;
      settleIdle();
    },
  };
}
