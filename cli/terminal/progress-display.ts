import type { TerminalEnvironment } from '../config/environment.ts';
import type { LogLevel } from './logger.ts';
import type { BuildProgress } from './progress.ts';
import { startLiveProgress } from './progress-live.ts';
import { startPlainProgress } from './progress-plain.ts';

/** `live`: redrawn in place on a terminal; `plain`: periodic log lines; `off`: none (--quiet). */
export type ProgressMode = 'live' | 'plain' | 'off';

/** Where a display writes: the process's streams, or a test's. */
export interface DisplayStreams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
}

/** A running display, and the line writers the logger must use while it runs. */
export interface ProgressDisplay {
  streams: { stdout(line: string): void; stderr(line: string): void };
  stop(): void;
}

/**
 * Live only on a terminal that is not CI's and can move its cursor (TERM=dumb cannot); plain lines
 * everywhere else, as Gatsby does with CI=true; nothing under --quiet.
 */
export function progressModeFor(logLevel: LogLevel, stderrIsTTY: boolean, terminal: TerminalEnvironment): ProgressMode {
  if (logLevel === 'silent' || logLevel === 'error' || logLevel === 'warn') return 'off';
  return stderrIsTTY && !terminal.ci && !terminal.dumb ? 'live' : 'plain';
}

/** Starts the display for `mode`; the live one draws on stderr. */
export function startProgressDisplay(progress: BuildProgress, mode: ProgressMode, io: DisplayStreams = process): ProgressDisplay {
  const streams = {
    stdout: (line: string) => void io.stdout.write(line + '\n'),
    stderr: (line: string) => void io.stderr.write(line + '\n'),
  };
  if (mode === 'live') {
    return startLiveProgress(progress, {
      ...streams,
      region: (text) => void io.stderr.write(text),
      columns: () => io.stderr.columns ?? 80,
    });
  }
  if (mode === 'plain') return { streams, ...startPlainProgress(progress, streams.stdout) };
  return { streams, stop: () => undefined };
}
