#!/usr/bin/env node
// `npm test`: every gate and suite runs even when one before it failed (type check, lint, Vitest, the
// browser tests), so CI's closing line (scripts/count-tests.js) counts every suite; the exit status is
// non-zero when any of them failed, and the failed ones are named at the end, after each step's time and
// the slowest test files (scripts/slowest-tests.js).
//
// Vitest and the browser tests each keep both cores about nine tenths busy (/proc/stat; docs/performance.md,
// "sixth pass"), one after the other. The type check and the lint run beside Vitest at the lowest
// priority, so they take what Vitest leaves idle rather than time from either suite; their output is held
// back and shown when they end.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { join } from 'node:path';
import { MEMORY_DIR, scratchDir, sweepStaleRuns } from './scratch-dir.js';
import { readReports, slowestFiles } from './slowest-tests.js';

const STEPS = {
  typecheck: 'type check',
  lint: 'lint',
  'test:unit': 'unit and integration tests',
  'test:e2e': 'browser tests',
};

const started = Date.now();
const results = new Map();
// Every temporary folder of both runners, and of what they start, goes in memory when the machine has
// room there (scripts/scratch-dir.js).
const scratch = scratchDir();
process.env.TMPDIR = scratch.dir;
console.log(`Temporary files of the tests go to ${scratch.dir}: ${scratch.reason} (TEST_TMPDIR=<folder> picks another).`);
if (scratch.dir === MEMORY_DIR) {
  const stale = sweepStaleRuns(scratch.dir);
  if (stale.length > 0) console.log(`Removed ${stale.length} folders that stopped test runs left in memory.`);
}
// A folder both runners share (tests/helpers/run-temp-dir.ts): the browser tests take the client bundle the
// unit run made rather than make it again, one build after another, before their first test.
const shared = mkdtempSync(join(scratch.dir, 'site-test-shared-'));
// Stopped (Ctrl-C, a CI job cancelled), the run removes that folder; the runners, which get the same
// signal, remove their own.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    try {
      if (!process.env.KEEP_TEST_TMP) rmSync(shared, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.error(`Could not remove ${shared}: ${error.message}`);
    }
    process.exit(signal === 'SIGINT' ? 130 : 143);
  });
}
process.env.TEST_SHARED_DIR = shared;
const gates = run('typecheck', { quiet: true, idle: true }).then(() => run('lint', { quiet: true, idle: true }));
await run('test:unit');
await run('test:e2e');
await gates;
if (process.env.KEEP_TEST_TMP) console.log(`Files both runners shared kept in ${shared}`);
else rmSync(shared, { recursive: true, force: true, maxRetries: 3 });

const slowest = slowestFiles(readReports('test-results'), 10, process.cwd());
if (slowest.length > 0) {
  console.log('\nSlowest test files:');
  for (const { runner, file, seconds: s } of slowest) console.log(`  ${s.toFixed(1).padStart(6)} s  ${file} (${runner})`);
}
const steps = Object.keys(STEPS).map((script) => `${STEPS[script]} ${seconds(results.get(script).ms)}`);
console.log(`\nnpm test took ${seconds(Date.now() - started)}: ${steps.join(' · ')}`);
const failed = Object.keys(STEPS)
  .filter((script) => results.get(script).status !== 0)
  .map((script) => `${STEPS[script]} (npm run ${script}: ${results.get(script).status})`);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join('; ')}`);
  process.exit(1);
}

/**
 * Runs `npm run <script>`; with `quiet`, its output is shown when it ends rather than as it comes; with
 * `idle`, at the lowest priority (the processes npm starts for it inherit it).
 */
function run(script, { quiet = false, idle = false } = {}) {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      shell: process.platform === 'win32',
    });
    if (idle && child.pid !== undefined) {
      try {
        setPriority(child.pid, constants.priority.PRIORITY_LOW);
      } catch {
        // Not allowed here: it runs at the usual priority, which costs time and nothing else.
      }
    }
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code, signal) => {
      results.set(script, { status: code ?? signal, ms: Date.now() - start });
      if (output.length > 0) process.stdout.write(`\n[${STEPS[script]}]\n${Buffer.concat(output).toString()}`);
      resolve();
    });
  });
}

function seconds(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
