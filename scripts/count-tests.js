#!/usr/bin/env node
// Sums the JSON reports of vitest and Playwright into CI's closing line: "N passed, N failed[, N skipped]".
// A failing gate that runs no tests (type check, lint) counts as one failure, so the line never says 0 failed for a red run.
import { readReports } from './slowest-tests.js';

const exitStatus = Number(process.argv[2] ?? 0);
let passed = 0;
let failed = 0;
let skipped = 0;

const reports = readReports('test-results');
// A report there but unreadable counts nothing it held: it is a failure.
failed += [reports.vitest, reports.e2e].filter((report) => report === null).length;
if (reports.vitest) {
  const r = reports.vitest;
  passed += r.numPassedTests ?? 0;
  failed += r.numFailedTests ?? 0;
  skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  // A file that fails to load has no tests to count, but it is a failure.
  failed += (r.testResults ?? []).filter((f) => f.status === 'failed' && (f.assertionResults ?? []).length === 0).length;
}

if (reports.e2e) {
  const s = reports.e2e.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
}

if (exitStatus !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
