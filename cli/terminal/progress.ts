import { formatBytes, formatCount, formatDuration } from './format.ts';
/**
 * The progress model of a build or a publish: a counter per stage (bundle, crawl, query, render, write,
 * publish's uploads, …) that the pipeline bumps and a display reads on its own timer. Bumping is an integer increment, so the
 * render/write loop pays nothing per page; drawing is throttled by the display (progress-display.ts).
 */

/** The state of one stage, read by displays and by the build report. */
export interface StageState {
  readonly name: string;
  /** Items done so far (pages, for the page stages). */
  readonly count: number;
  /** Items expected; null while unknown (the page count is known only when the crawl ends). */
  readonly total: number | null;
  /** Clock reading (ms) when the stage started. */
  readonly startedAt: number;
  /** Clock reading (ms) when the stage ended; null while it runs. */
  readonly endedAt: number | null;
  /** What the stage counts, for display (`pages`, or '' for a stage without a count). */
  readonly unit: string;
  /** Bytes of the items done, for a stage whose items have a size (publish's uploads). */
  readonly bytes: number;
  /** Bytes of every item expected; null for a stage that does not count bytes. */
  readonly totalBytes: number | null;
}

/** The pipeline's handle on one stage. */
export interface StageHandle {
  /** `n` more items done, of `bytes` bytes together. @default 1, 0 */
  add(n?: number, bytes?: number): void;
  /** The items expected, and their bytes for a stage that counts them. */
  setTotal(total: number, totalBytes?: number): void;
  end(): void;
  readonly state: StageState;
}

/** The progress of one build. */
export interface BuildProgress {
  /** Starts a stage (or returns the running one of that name). */
  stage(name: string, unit?: string): StageHandle;
  /** Every stage started so far, in start order. */
  stages(): readonly StageState[];
  /** The clock the stages are timed with. */
  now(): number;
}

/** Creates the progress model of one build. */
export function createBuildProgress(now: () => number = () => performance.now()): BuildProgress {
  const handles = new Map<string, StageHandle>();
  return {
    now,
    stages: () => [...handles.values()].map((h) => h.state),
    stage(name, unit = 'pages') {
      const existing = handles.get(name);
      if (existing) return existing;
      const state = {
        name,
        unit,
        count: 0,
        total: null as number | null,
        bytes: 0,
        totalBytes: null as number | null,
        startedAt: now(),
        endedAt: null as number | null,
      };
      const handle: StageHandle = {
        state,
        add(n = 1, bytes = 0) {
          state.count += n;
          state.bytes += bytes;
        },
        setTotal(total, totalBytes) {
          state.total = total;
          if (totalBytes !== undefined) state.totalBytes = totalBytes;
        },
        end() {
          state.endedAt ??= now();
        },
      };
      handles.set(name, handle);
      return handle;
    },
  };
}

/** Items per second since the stage started, or null before there is anything to measure. */
export function rateOf(stage: StageState, now: number): number | null {
  const seconds = ((stage.endedAt ?? now) - stage.startedAt) / 1000;
  return seconds > 0.05 && stage.count > 0 ? stage.count / seconds : null;
}

/** Milliseconds left at the current rate, or null while the total or the rate is unknown. */
export function timeLeftOf(stage: StageState, now: number): number | null {
  const rate = rateOf(stage, now);
  if (stage.total === null || rate === null) return null;
  return (Math.max(0, stage.total - stage.count) / rate) * 1000;
}

/**
 * One line for a running stage, without its name:
 * `4,200/10,802 pages (39%), 1,850/s, about 4 s left`; `4,200 pages, 1,850/s` while the total is unknown;
 * `120/431 files (27%), 1.2 MiB of 3.4 MiB, 50/s, about 6 s left` for a stage that counts bytes;
 * `running for 3.1 s` for a stage without a count.
 */
export function describeStage(stage: StageState, now: number): string {
  const elapsed = formatDuration((stage.endedAt ?? now) - stage.startedAt);
  if (!stage.unit) return stage.endedAt === null ? `running for ${elapsed}` : elapsed;
  const rate = rateOf(stage, now);
  const parts = [
    stage.total === null
      ? `${formatCount(stage.count)} ${stage.unit}`
      : `${formatCount(stage.count)}/${formatCount(stage.total)} ${stage.unit} (${percentOf(stage)}%)`,
  ];
  if (stage.totalBytes !== null) parts.push(`${formatBytes(stage.bytes)} of ${formatBytes(stage.totalBytes)}`);
  if (rate !== null) parts.push(`${formatCount(Math.round(rate))}/s`);
  const left = timeLeftOf(stage, now);
  // Once every item is counted the stage may still be finishing (writes in flight): show its time, not "0 ms left".
  parts.push(left !== null && left > 0 && stage.endedAt === null ? `about ${formatDuration(left)} left` : elapsed);
  return parts.join(', ');
}

/** Whole percent done, 0 without a total. */
export function percentOf(stage: StageState): number {
  return stage.total ? Math.min(100, Math.floor((stage.count / stage.total) * 100)) : 0;
}

/** Runs `tick` every `intervalMs` on a timer that never keeps a finished build's process alive; returns a stop function. */
export function unrefInterval(intervalMs: number, tick: () => void): () => void {
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Passes every item of `items` through, calling `onItem` for each and `onEnd` once they run out. */
export async function* observe<T>(items: AsyncIterable<T>, onItem: (item: T) => void, onEnd: () => void): AsyncGenerator<T> {
  for await (const item of items) {
    onItem(item);
    yield item;
  }
  onEnd();
}
