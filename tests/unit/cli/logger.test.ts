import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../cli/terminal/logger.ts';

describe('the logger', () => {
  it('shows the control characters of a line rather than sending them to the terminal', () => {
    const lines: string[] = [];
    const logger = createLogger('debug', { stdout: (l) => lines.push(l), stderr: (l) => lines.push(l) });
    // A title from the content backend that would retitle the terminal and erase the line before it.
    logger.warn('check', '/news/a: title "\u001b]0;owned\u0007\u001b[1A\u001b[2KAll fine\r" \u009b2J');
    logger.info('build', 'two\nlines\tand a tab');
    expect(lines).toEqual(['[check] warning: /news/a: title "\\x1b]0;owned\\x07\\x1b[1A\\x1b[2KAll fine\\x0d" \\x9b2J', '[build] two\nlines\tand a tab']);
  });
});
