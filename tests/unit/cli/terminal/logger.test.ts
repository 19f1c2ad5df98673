import { describe, expect, it } from 'vitest';
import { createBuildError, BuildErrors } from '../../../../cli/errors/errors.ts';
import { formatError } from '../../../../cli/errors/format-error.ts';
import { createLogger } from '../../../../cli/terminal/logger.ts';

const HOSTILE =
  'x\n::error title=Forged::pwned\r\n[build] wrote 0 pages\u2028##[add-mask]y ##vso[task.setvariable]z ##teamcity[buildStatus] \u001b[2K';

describe('the logger', () => {
  it('shows the control characters of a line rather than sending them to the terminal, and keeps a message on one line', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) });
    // A title from the content backend that would retitle the terminal and erase the line before it.
    logger.warn('check', '/news/a: title "\u001b]0;owned\u0007\u001b[1A\u001b[2KAll fine\r" \u009b2J');
    logger.info('build', 'two\nlines\tand a tab');
    expect(lines).toEqual([
      '[check] warning: /news/a: title "\\x1b]0;owned\\x07\\x1b[1A\\x1b[2KAll fine\\x0d" \\x9b2J',
      '[build] two\\nlines\tand a tab',
    ]);
  });

  it('lets no value start a line or a CI workflow command, in a message or an error', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) });
    logger.info('check', HOSTILE);
    logger.warn('check', HOSTILE);
    logger.debug?.('check', HOSTILE);
    logger.error(
      formatError(
        createBuildError(BuildErrors.PagesFailed, [1, 2], {
          failures: [{ page: HOSTILE, route: HOSTILE, operation: HOSTILE, cause: HOSTILE, fix: HOSTILE }],
        }),
      ),
    );
    logger.error(formatError(new Error(HOSTILE)));
    // An error's own lines, with a line a CI would run: defused too.
    logger.error('[X] one\n  ::add-mask::secret\n##[group]g');
    const output = lines.join('\n').split('\n');
    expect(output.filter((l) => /^\s*::/.test(l))).toEqual([]);
    expect(output.filter((l) => /##\w*\[/.test(l))).toEqual([]);
    expect(output.filter((l) => /^\[build\]/.test(l))).toEqual([]);
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    expect(output.join('\n')).not.toMatch(/[\r\u001b\u2028\u2029]/);
    // Each value on the line it belongs to: three messages, a failure's two lines, the error's.
    expect(output.filter((l) => l.includes('Forged'))).toHaveLength(3 + 2 + 1);
    expect(lines[0]).toBe(
      '[check] x\\n::error title=Forged::pwned\\x0d\\n[build] wrote 0 pages\\u2028#\\x23[add-mask]y #\\x23vso[task.setvariable]z #\\x23teamcity[buildStatus] \\x1b[2K',
    );
    expect(lines.at(-1)).toBe('[X] one\n  \\x3a:add-mask::secret\n#\\x23[group]g');
  });

  it('writes one JSON object a line with --log-format json: the message reads back whole, and the line is safe as the text one', () => {
    const lines: string[] = [];
    const logger = createLogger(
      'debug',
      { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) },
      { format: 'json', now: () => new Date('2026-11-28T12:00:00Z') },
    );
    logger.info('check', HOSTILE);
    logger.warn('live', 'https://user:secret@cms.example/graphql is down');
    logger.error(formatError(new Error(HOSTILE)));
    logger.debug?.('summary', 'pages 145');
    expect(lines).toHaveLength(4);
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, string>);
    expect(parsed[0]).toEqual({ time: '2026-11-28T12:00:00.000Z', level: 'info', stage: 'check', message: HOSTILE });
    expect(parsed[1]).toMatchObject({ level: 'warn', stage: 'live' });
    expect(parsed[1]!.message).not.toContain('secret');
    expect(parsed[2]).toMatchObject({ level: 'error', stage: 'error' });
    expect(parsed[3]).toMatchObject({ level: 'debug', stage: 'summary', message: 'pages 145' });
    for (const line of lines) {
      expect(line).not.toMatch(/##\w*\[/);
      // eslint-disable-next-line no-control-regex -- looking for control characters is the point
      expect(line).not.toMatch(/[\n\r\u001b\u2028\u2029]/);
    }
  });
});
