import { redactUrlsIn } from '../../runtime/shared/redact-url.ts';

/**
 * The build's one logger: stage-labelled lines, levels, and nothing else writes to the console. Every
 * line goes out with the credentials in its URLs redacted (redactUrlsIn), and with its control
 * characters shown rather than sent (visible): lines carry text from the content backend and the build
 * cache (titles, links, paths), which must not move the cursor, retitle the terminal or hide a line.
 */

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  info(stage: string, message: string): void;
  warn(stage: string, message: string): void;
  error(message: string): void;
  debug?: (stage: string, message: string) => void;
}

const ORDER: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/** Writes `[stage] message` lines to stdout (info, debug) and stderr (warn, error). */
export function createLogger(level: LogLevel = 'info', streams: { stdout: (line: string) => void; stderr: (line: string) => void } = defaultStreams()): Logger {
  const on = (l: LogLevel): boolean => ORDER[level] >= ORDER[l];
  const out = { stdout: (line: string) => streams.stdout(visible(redactUrlsIn(line))), stderr: (line: string) => streams.stderr(visible(redactUrlsIn(line))) };
  return {
    info: (stage, message) => on('info') && out.stdout(`[${stage}] ${message}`),
    warn: (stage, message) => on('warn') && out.stderr(`[${stage}] warning: ${message}`),
    error: (message) => on('error') && out.stderr(message),
    debug: on('debug') ? (stage, message) => out.stdout(`[${stage}] ${message}`) : undefined,
  } as Logger;
}

/** Runs `run` and logs `[stage] {summary of its result} in N ms`. */
export async function logTimed<T>(logger: Logger, stage: string, run: () => Promise<T>, summary: (result: T) => string): Promise<T> {
  const start = performance.now();
  const result = await run();
  logger.info(stage, `${summary(result)} in ${Math.round(performance.now() - start)} ms`);
  return result;
}

/** A logger that keeps its lines, for tests. */
export function createMemoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (line: string): void => void lines.push(line);
  return Object.assign(createLogger('debug', { stdout: push, stderr: push }), { lines });
}

// --- internal ---

/** Control characters but newline and tab (C0, DEL, C1). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The text with each control character but newline and tab written as `\xNN`: for whatever else reaches the terminal too. */
export function visible(line: string): string {
  return line.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function defaultStreams(): { stdout: (line: string) => void; stderr: (line: string) => void } {
  return {
    stdout: (line) => process.stdout.write(line + '\n'),
    stderr: (line) => process.stderr.write(line + '\n'),
  };
}
