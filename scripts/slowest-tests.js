// The test files that took longest, from the JSON reports of vitest and Playwright, so that `npm test`
// ends by showing where its time went and the next slowdown is seen where it happens.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

/**
 * The `count` slowest files of both reports, slowest first: each with its runner, its path from `root`
 * and its seconds (vitest: from the file's start to its end; Playwright: its tests' durations summed, as
 * they run one after another in a worker).
 * @param {{ vitest?: any, e2e?: any }} reports the parsed test-results/vitest.json and test-results/e2e.json
 * @param {number} count
 * @param {string} root the folder paths are given from
 * @returns {{ runner: 'vitest' | 'playwright', file: string, seconds: number }[]}
 */
export function slowestFiles(reports, count, root) {
  const files = [];
  for (const result of reports.vitest?.testResults ?? []) {
    files.push({ runner: 'vitest', file: relative(root, result.name), seconds: (result.endTime - result.startTime) / 1000 });
  }
  const e2e = new Map();
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests ?? []) for (const run of test.results ?? []) e2e.set(file, (e2e.get(file) ?? 0) + run.duration / 1000);
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of reports.e2e?.suites ?? []) walk(suite, suite.file);
  for (const [file, seconds] of e2e) files.push({ runner: 'playwright', file: `tests/e2e/${file}`, seconds });
  return files.sort((a, b) => b.seconds - a.seconds).slice(0, count);
}

/**
 * The reports `npm test` left in `dir` (test-results/), parsed: undefined for one that is missing, null
 * for one that is there but cannot be read or parsed (scripts/count-tests.js counts that as a failure).
 */
export function readReports(dir) {
  const read = (name) => {
    const file = `${dir}/${name}`;
    if (!existsSync(file)) return undefined;
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      return null;
    }
  };
  return { vitest: read('vitest.json'), e2e: read('e2e.json') };
}
