#!/usr/bin/env node
// `npm test`: every gate and suite runs even when one before it failed (type check, lint, Vitest, the
// browser tests), so CI's closing line (scripts/count-tests.js) counts every suite; the exit status is
// non-zero when any of them failed, and the failed ones are named at the end.
import { spawnSync } from 'node:child_process';

const STEPS = [
  ['type check', 'typecheck'],
  ['lint', 'lint'],
  ['unit and integration tests', 'test:unit'],
  ['browser tests', 'test:e2e'],
];

const failed = [];
for (const [name, script] of STEPS) {
  const result = spawnSync('npm', ['run', '--silent', script], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) failed.push(`${name} (npm run ${script}: ${result.status ?? result.signal})`);
}
if (failed.length > 0) {
  console.error(`\nFailed: ${failed.join('; ')}`);
  process.exit(1);
}
