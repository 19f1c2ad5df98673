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
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
// Stopped (Ctrl-C, a CI job cancelled), the run passes the signal on to the runners and what they started
// (a SIGTERM sent to this process alone would otherwise leave them running; a Ctrl-C reaches them anyway,
// and a second signal does them no harm), which remove their own folders; it removes that one.
const running = new Set();
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    for (const pid of [...running].flatMap((child) => [child.pid, ...descendantsOf(child.pid)])) {
      try {
        process.kill(pid, signal);
      } catch {
        // Already gone.
      }
    }
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
    if (child.pid !== undefined) running.add(child);
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
      running.delete(child);
      results.set(script, { status: code ?? signal, ms: Date.now() - start });
      if (output.length > 0) process.stdout.write(`\n[${STEPS[script]}]\n${Buffer.concat(output).toString()}`);
      resolve();
    });
  });
}

/**
 * The processes below `pid` (npm's shell, the runner, its workers), from /proc where there is one: a
 * signal to npm alone may stop at the shell it started. Elsewhere none, and `pid` alone gets the signal.
 */
function descendantsOf(pid) {
  let names;
  try {
    names = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  const children = new Map();
  for (const name of names) {
    try {
      // The parent is the fourth field, after the name in parentheses (which may hold spaces).
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // Gone meanwhile.
    }
  }
  const found = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const next = children.get(queue.shift()) ?? [];
    found.push(...next);
    queue.push(...next);
  }
  return found;
}

function seconds(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
