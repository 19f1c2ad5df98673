import { describeStage, unrefInterval, percentOf, type BuildProgress, type StageState } from './progress.ts';

/** Where the live display draws, and where log lines go meanwhile. */
export interface LiveProgressIO {
  /** Writes raw text to the terminal the display is drawn on (stderr). */
  region(text: string): void;
  /** Writes one log line to stdout / stderr. */
  stdout(line: string): void;
  stderr(line: string): void;
  /** Width of the terminal. */
  columns(): number;
}

/** Options of the live display. */
export interface LiveProgressOptions {
  /** Milliseconds between redraws. @default 100 */
  intervalMs?: number;
  /** Runs `tick` every `intervalMs`; returns a stop function. Injected by tests. @default setInterval, unref'd */
  every?: (intervalMs: number, tick: () => void) => () => void;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const BAR_WIDTH = 20;

/**
 * Progress on a terminal: one line per running stage, redrawn in place at most every `intervalMs`:
 * `⠹ render   ████████░░░░░░░░░░░░ 4,200/10,802 pages (39%), 1,850/s, about 4 s left`.
 * Log lines printed through `streams` appear above the display, which is redrawn below them; a stage
 * that ends leaves the display (its `[stage]` log line stays).
 */
export function startLiveProgress(
  progress: BuildProgress,
  io: LiveProgressIO,
  { intervalMs = 100, every = unrefInterval }: LiveProgressOptions = {},
): {
  stop(): void;
  streams: { stdout(line: string): void; stderr(line: string): void };
} {
  let drawn = 0;
  let frame = 0;
  const erase = (): string => (drawn > 0 ? `\x1b[${drawn}F\x1b[0J` : '');
  const draw = (): void => {
    const now = progress.now();
    // A pseudo-terminal without a size reports 0 columns.
    const width = Math.max(20, (io.columns() || 80) - 1);
    const lines = progress
      .stages()
      .filter((s) => s.endedAt === null)
      .map((s) => truncate(liveLine(s, now, SPINNER[frame % SPINNER.length]!), width));
    io.region(erase() + lines.map((l) => l + '\n').join(''));
    drawn = lines.length;
  };
  const stopTimer = every(intervalMs, () => {
    frame++;
    draw();
  });
  const above = (write: (line: string) => void) => (line: string) => {
    io.region(erase());
    drawn = 0;
    write(line);
    draw();
  };
  return {
    streams: { stdout: above(io.stdout), stderr: above(io.stderr) },
    stop() {
      stopTimer();
      io.region(erase());
      drawn = 0;
    },
  };
}

/** One display line for a running stage. */
function liveLine(stage: StageState, now: number, spinner: string): string {
  const bar = stage.total === null ? '' : progressBar(percentOf(stage)) + ' ';
  return `${spinner} ${stage.name.padEnd(8)} ${bar}${describeStage(stage, now)}`;
}

// --- internal ---

function progressBar(percent: number): string {
  const full = Math.round((percent / 100) * BAR_WIDTH);
  return '█'.repeat(full) + '░'.repeat(BAR_WIDTH - full);
}

function truncate(line: string, width: number): string {
  // A line wider than the terminal wraps, and the redraw would then erase one line too few.
  return line.length > width ? line.slice(0, width - 1) + '…' : line;
}
