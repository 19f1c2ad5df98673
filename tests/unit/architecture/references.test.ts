import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';
import { fileNames, filesUnder, missingPaths } from './source-scan.ts';

/** Where comments and docs are read: the code's folders, the docs, the top-level README and configs. */
const SCANNED = [
  'cli',
  'runtime',
  'site',
  'backend',
  'bench',
  'scripts',
  'tests',
  'bin',
  'docs',
  'README.md',
  'rollup.config.ts',
  'playwright.config.ts',
  'vitest.config.ts',
  'eslint.config.js',
];

/**
 * File names a comment or doc rightly gives that are not this repository's: other projects' files and
 * the files of the output or of the compiled CLI. Each is a name, not a path, so a stale path still fails.
 */
const FOREIGN = new Set([
  'Node.js', // the runtime
  'pagefind.js',
  'pagefind-worker.js',
  'pagefind-ui.js', // Pagefind's files, in the output's _search/
  'ical.js', // a calendar library the docs compare with
  'analyzeDocument.js', // graphql-request's own file
  'main.js',
  'render-thread.js',
  'bundle-thread.js', // the compiled CLI's files, in the cache (bin/compile-cli.js)
]);

const known = fileNames(ROOT, ['.']);
const scan = (file: string, text: string): string[] =>
  missingPaths(ROOT, file, text, known, FOREIGN).map((f) => `${f.file}:${f.line} ${f.name}`);

describe('comments and docs', () => {
  it('name only files and folders that exist in the repository', () => {
    const files = filesUnder(ROOT, SCANNED, /\.(?:ts|tsx|js|mjs|cjs|md)$/);
    expect(files.length).toBeGreaterThan(400);
    expect(files.flatMap((file) => scan(file, readFileSync(`${ROOT}/${file}`, 'utf8')))).toEqual([]);
  });

  it('fail on a renamed file, a file from outside the repository, or a broken link, and only in comments', () => {
    const source = [
      "import { swapIn } from './swap.ts';",
      '/** Holds the lock (output-lock.ts) and swaps through cli/output/output-swap.ts, as SPEC.md says. */',
      "const path = 'cli/output/output-lock.ts'; // the real one is cli/output/lock.ts, beside ./write.ts",
      'export const x = <p>{/* see site/pages/news.tsx */}</p>;',
      '// Not paths: https://example.org/cli/nope.ts, entry-{hash}.js, *.build.ts, `site/build/`.',
    ].join('\n');
    expect(scan('cli/output/example.tsx', source)).toEqual([
      'cli/output/example.tsx:2 output-lock.ts',
      'cli/output/example.tsx:2 cli/output/output-swap.ts',
      'cli/output/example.tsx:2 SPEC.md',
      'cli/output/example.tsx:4 site/pages/news.tsx',
    ]);
    const doc =
      'See [the CLI](cli.md), [the design](../shared/DESIGN.md#decisions) and `cli/output/output-lock.ts`.\n[Gone](decisions/none.md)';
    expect(scan('docs/example.md', doc)).toEqual([
      'docs/example.md:1 ../shared/DESIGN.md',
      'docs/example.md:1 cli/output/output-lock.ts',
      'docs/example.md:2 decisions/none.md',
    ]);
  });
});
