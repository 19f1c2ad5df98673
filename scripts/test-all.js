#!/usr/bin/env node
// `npm test`: every gate and suite runs even when one before it failed (type check, lint, Vitest, the
// browser tests), so CI's closing line (scripts/count-tests.js) counts every suite; the exit status is
// non-zero when any of them failed, and the failed ones are named at the end, after each step's time and
// the slowest test files (scripts/slowest-tests.js).
import { spawnSync } from 'node:child_process';
import { readReports, slowestFiles } from './slowest-tests.js';

const STEPS = [
  ['type check', 'typecheck'],
  ['lint', 'lint'],
  ['unit and integration tests', 'test:unit'],
  ['browser tests', 'test:e2e'],
];

const failed = [];
const times = [];
const started = Date.now();
for (const [name, script] of STEPS) {
  const start = Date.now();
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', shell: process.platform === 'win32' });
  times.push(`${name} ${seconds(Date.now() - start)}`);
  if (result.status !== 0) failed.push(`${name} (npm run ${script}: ${result.status ?? result.signal})`);
}

const slowest = slowestFiles(readReports('test-results'), 10, process.cwd());
if (slowest.length > 0) {
  console.log('\nSlowest test files:');
  for (const { runner, file, seconds: s } of slowest) console.log(`  ${s.toFixed(1).padStart(6)} s  ${file} (${runner})`);
}
console.log(`\nnpm test took ${seconds(Date.now() - started)}: ${times.join(' · ')}`);
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join('; ')}`);
  process.exit(1);
}

function seconds(ms) {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
