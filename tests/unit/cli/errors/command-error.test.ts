import { describe, expect, it } from 'vitest';
import { BuildErrors, createBuildError, reviveError, threadError } from '../../../../cli/errors/errors.ts';
import { commandError, formatError } from '../../../../cli/errors/format-error.ts';

const systemError = (code: string, message: string): NodeJS.ErrnoException => Object.assign(new Error(`${code}: ${message}`), { code });

describe('commandError', () => {
  it('names a full disk as DiskFull, with what could not be written and what to do', () => {
    const error = commandError(systemError('ENOSPC', "no space left on device, open '/srv/site/.site-staging-1/news/index.html'"));
    expect(error.code).toBe('DiskFull');
    const text = formatError(error);
    expect(text).toContain(
      "[DiskFull] The disk is full (or the user's quota used up): ENOSPC: no space left on device, open '/srv/site/.site-staging-1/news/index.html'.",
    );
    expect(text).toContain(
      'Hint: Free space on the disk that holds the output folder (--out), the build cache (--cache-dir) and the temporary folder',
    );
  });

  it('finds the full disk in an error from a page-write thread, which keeps only the text, in a quota, and under a cause', () => {
    // What the build's main thread gets when a write thread hits a full disk (seen at 100,000 pages).
    expect(commandError(reviveError(threadError(systemError('ENOSPC', 'no space left on device, write')))).code).toBe('DiskFull');
    expect(commandError(systemError('EDQUOT', 'disk quota exceeded, write')).code).toBe('DiskFull');
    expect(
      commandError(new Error('the state could not be saved', { cause: systemError('ENOSPC', 'no space left on device, write') })).code,
    ).toBe('DiskFull');
  });

  it('leaves a BuildError as it is and calls anything else unexpected', () => {
    const known = createBuildError(BuildErrors.OutputNotWritable, ['/srv/site', 'EACCES: permission denied']);
    expect(commandError(known)).toBe(known);
    expect(commandError(systemError('EACCES', 'permission denied, open')).code).toBe('UnexpectedError');
    expect(commandError(new Error('mentions ENOSPC in passing')).code).toBe('UnexpectedError');
    expect(commandError('a string').message).toBe('The command failed unexpectedly: a string');
  });
});
