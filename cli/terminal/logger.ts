import { redactUrlsIn } from '../../runtime/shared/redact-url.ts';

/**
 * The build's one logger: stage-labelled lines, levels, and nothing else writes to the console. Every
 * line goes out with the credentials in its URLs redacted (redactUrlsIn), and with its control
 * characters shown rather than sent (oneLine): lines carry text from the content backend, the network
 * and the build cache (titles, links, paths, answers), which must not move the cursor, retitle the
 * terminal or hide a line. An info, warning or debug message is one line whatever it holds (oneLine):
 * a newline in a title cannot start a line of its own, so content can neither forge a `[build]` line
 * nor print a CI workflow command (`::error …`, `::add-mask::…`, `##[…]`). An error is several lines,
 * each made safe the same way (terminalText); the values in it are one line each (format-error.ts).
 */

export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

export interface Logger {
  info(stage: string, message: string): void;
  warn(stage: string, message: string): void;
  error(message: string): void;
  debug?: (stage: string, message: string) => void;
}

const ORDER: Record<LogLevel, number> = { silent: 0, error: 1, warn: 2, info: 3, debug: 4 };

/**
 * Writes `[stage] message` lines to stdout (info, debug) and stderr (warn, error). With `format: 'json'`
 * each line is one JSON object, `{"time","level","stage","message"}` (an error's stage is `error`), for a
 * log collector (`site live --log-format json`); JSON's escapes keep such a line one line whatever it holds.
 */
export function createLogger(
  level: LogLevel = 'info',
  streams: { stdout: (line: string) => void; stderr: (line: string) => void } = defaultStreams(),
  { format = 'text', now = () => new Date() }: { format?: 'text' | 'json'; now?: () => Date } = {},
): Logger {
  const on = (l: LogLevel): boolean => ORDER[level] >= ORDER[l];
  if (format === 'json') {
    // JSON's own escapes for the line separators some logs break at, and for the `#` of a CI's `##x[` mark:
    // the line reads back as the same message.
    const json = (l: LogLevel, stage: string, message: string): string =>
      JSON.stringify({ time: now().toISOString(), level: l, stage, message: redactUrlsIn(message) })
        .replace(/[\u2028\u2029]/g, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'))
        .replace(/##(\w*\[)/g, '#\\u0023$1');
    return {
      info: (stage, message) => on('info') && streams.stdout(json('info', stage, message)),
      warn: (stage, message) => on('warn') && streams.stderr(json('warn', stage, message)),
      error: (message) => on('error') && streams.stderr(json('error', 'error', message)),
      debug: on('debug') ? (stage, message) => streams.stdout(json('debug', stage, message)) : undefined,
    } as Logger;
  }
  const line = (text: string): string => oneLine(redactUrlsIn(text));
  return {
    info: (stage, message) => on('info') && streams.stdout(line(`[${stage}] ${message}`)),
    warn: (stage, message) => on('warn') && streams.stderr(line(`[${stage}] warning: ${message}`)),
    error: (message) => on('error') && streams.stderr(terminalText(redactUrlsIn(message))),
    debug: on('debug') ? (stage, message) => streams.stdout(line(`[${stage}] ${message}`)) : undefined,
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

/**
 * The text as one line: control characters but tab as `\xNN` (C0, DEL, C1), newlines as `\n` and the
 * Unicode line and paragraph separators as `\u2028` and `\u2029`, and no workflow command (defused). For
 * every value from the content, the network or the cache that goes into a line of output.
 */
export function oneLine(text: string): string {
  return defused(
    text.replace(UNSAFE, (c) =>
      c === '\n' ? '\\n' : c <= '\u00ff' ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : `\\u${c.charCodeAt(0).toString(16)}`,
    ),
  );
}

/**
 * Text of several lines (an error and its failures) as it may reach a terminal or a CI log: each line
 * made safe as oneLine makes it, and the newlines between them kept.
 */
export function terminalText(text: string): string {
  return text.split('\n').map(oneLine).join('\n');
}

// --- internal ---

/** Control characters but tab (C0, DEL, C1), and the line and paragraph separators some logs and editors break lines at. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * A line no CI reads as a command: GitHub Actions runs a line that starts (after blanks) with `::`, and
 * runs `##[…]` anywhere in a line, as Azure Pipelines does `##vso[…]` and TeamCity `##teamcity[…]`. The
 * first `:` of such a start, and the second `#` of such a mark, are written as `\x3a` and `\x23`.
 */
function defused(line: string): string {
  return line.replace(/^(\s*):(?=:)/, '$1\\x3a').replace(/##(\w*\[)/g, '#\\x23$1');
}

function defaultStreams(): { stdout: (line: string) => void; stderr: (line: string) => void } {
  return {
    stdout: (line) => process.stdout.write(line + '\n'),
    stderr: (line) => process.stderr.write(line + '\n'),
  };
}
