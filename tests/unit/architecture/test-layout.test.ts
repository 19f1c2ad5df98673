import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';
import { filesUnder } from './source-scan.ts';

/**
 * The files of `tests/unit/cli/` that do not sit in a folder named like one of `cli/`'s folders
 * (`tests/unit/cli/output/write.test.ts` tests `cli/output/`; deeper folders such as
 * `tests/unit/cli/build/incremental/` group tests within one). Each with what to do.
 */
function misplacedCliTests(files: readonly string[], cliFolders: ReadonlySet<string>): string[] {
  return files.flatMap((file) => {
    const [, , , folder, ...rest] = file.split('/');
    if (folder !== undefined && rest.length > 0 && cliFolders.has(folder)) return [];
    const where =
      rest.length === 0 ? 'sits at the top of tests/unit/cli/' : `is in tests/unit/cli/${folder}/, and cli/${folder}/ does not exist`;
    return [`${file} ${where}: move it (git mv) into tests/unit/cli/<folder>/, <folder> the cli/ folder of the module it tests`];
  });
}

describe('the unit tests of cli/', () => {
  const cliFolders = new Set(readdirSync(join(ROOT, 'cli')).filter((name) => statSync(join(ROOT, 'cli', name)).isDirectory()));

  it("sit in folders that mirror cli/'s folders", () => {
    const files = filesUnder(ROOT, ['tests/unit/cli'], /./);
    expect(files.length).toBeGreaterThan(30);
    expect(misplacedCliTests(files, cliFolders)).toEqual([]);
  });

  it('finds a test at the top of tests/unit/cli/ and one in a folder cli/ does not have', () => {
    const files = [
      'tests/unit/cli/output/write.test.ts',
      'tests/unit/cli/build/incremental/feed-plan.test.ts',
      'tests/unit/cli/shard.test.ts',
      'tests/unit/cli/misc/x.test.ts',
    ];
    expect(misplacedCliTests(files, cliFolders)).toEqual([
      'tests/unit/cli/shard.test.ts sits at the top of tests/unit/cli/: move it (git mv) into tests/unit/cli/<folder>/, <folder> the cli/ folder of the module it tests',
      'tests/unit/cli/misc/x.test.ts is in tests/unit/cli/misc/, and cli/misc/ does not exist: move it (git mv) into tests/unit/cli/<folder>/, <folder> the cli/ folder of the module it tests',
    ]);
  });
});
