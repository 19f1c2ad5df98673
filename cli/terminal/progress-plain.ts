import { describeStage, unrefInterval, type BuildProgress, type StageState } from './progress.ts';

/** Options of the plain display. */
export interface PlainProgressOptions {
  /** Milliseconds between two lines about the same running stage. @default 2000 */
  intervalMs?: number;
  /** Runs `tick` every `intervalMs`; returns a stop function. Injected by tests. @default setInterval, unref'd */
  every?: (intervalMs: number, tick: () => void) => () => void;
}

/**
 * Progress for logs without a terminal (CI, pipes): every `intervalMs`, one line per stage that is
 * still running and moved since its last line, such as
 * `[render] 4,200/10,802 pages (39%), 1,850/s, about 4 s left`. No escape codes, nothing redrawn:
 * a log file reads top to bottom. Stages that end are reported by the build's own `[stage]` lines.
 */
export function startPlainProgress(
  progress: BuildProgress,
  print: (line: string) => void,
  { intervalMs = 2000, every = unrefInterval }: PlainProgressOptions = {},
): { stop(): void } {
  const lastCount = new Map<string, number>();
  const tick = (): void => {
    const now = progress.now();
    for (const stage of progress.stages()) {
      if (!isWorthALine(stage, now, intervalMs, lastCount.get(stage.name))) continue;
      lastCount.set(stage.name, stage.count);
      print(`[${stage.name}] ${describeStage(stage, now)}`);
    }
  };
  return { stop: every(intervalMs, tick) };
}

// --- internal ---

/** A running stage that has run a full interval and moved since its last line (a stalled stage repeats nothing). */
function isWorthALine(stage: StageState, now: number, intervalMs: number, last: number | undefined): boolean {
  if (stage.endedAt !== null || now - stage.startedAt < intervalMs) return false;
  return stage.unit === '' || last !== stage.count;
}
