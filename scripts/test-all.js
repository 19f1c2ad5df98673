#!/usr/bin/env node
// `npm test`: every gate and suite runs even when another failed (type check, lint, Vitest, the browser
// tests), so CI's closing line (scripts/count-tests.js) counts every suite; the exit status is non-zero
// when any of them failed, and the failed ones are named at the end, after each step's time and the
// slowest test files (scripts/slowest-tests.js).
//
// All of them start at once. Run on their own, after Vitest, the browser tests kept about 0.7 of the
// 2 cores busy (they wait on the browser, on timers and on the servers they start) for four and a half
// minutes; Vitest alone keeps both cores busy. Side by side, Vitest's work fills what the browser tests
// leave idle. Vitest, the type check and the lint run at a lower CPU priority, so that the browser tests,
// whose waits are timed, get the cores they ask for when they ask, about as they did on their own. Vitest's
// output streams; the others' is held back and shown, under their name, when each ends.
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { readReports, slowestFiles } from './slowest-tests.js';

const STEPS = {
  typecheck: 'type check',
  lint: 'lint',
  'test:unit': 'unit and integration tests',
  'test:e2e': 'browser tests',
};
/** The nice value of the steps that only need the cores the browser tests leave (19 is the lowest priority). */
const BACKGROUND = 10;

const started = Date.now();
const results = new Map();
await Promise.all([
  run('test:e2e', { quiet: true }),
  run('test:unit', { background: true }),
  run('typecheck', { quiet: true, background: true }).then(() => run('lint', { quiet: true, background: true })),
]);

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
 * Runs `npm run <script>`. With `quiet`, its output is shown when it ends rather than as it comes; with
 * `background`, it and every process it starts run at the lower priority (they inherit it from npm, which
 * has it before it starts anything).
 */
function run(script, { quiet = false, background = false } = {}) {
  const start = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], {
      stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      shell: process.platform === 'win32',
    });
    if (background && child.pid !== undefined) {
      try {
        setPriority(child.pid, BACKGROUND);
      } catch {
        // Not allowed here: it runs at the same priority as the browser tests, only slower beside them.
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
