import { spawnSync } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { getPriority } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';

/** `npm test` runs every suite even when one failed, so CI's closing line counts them all (issue 17.7). */
describe('npm test', () => {
  it('runs every suite though one failed, all at once, and still fails, naming what failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-test-all-'));
    // Each step notes its CPU priority (nice value) and whether the step it should run beside was seen
    // running: it waits up to 20 s for that step's mark. The lint also notes whether the type check had ended.
    await writeFile(
      join(dir, 'step.cjs'),
      `const fs = require('fs');
const [name, beside, after] = process.argv.slice(2);
fs.writeFileSync(name + '.ran', '');
const started = Date.now();
const wait = () => {
  const seen = !beside || fs.existsSync(beside + '.ran');
  if (!seen && Date.now() - started < 20000) return setTimeout(wait, 50);
  fs.writeFileSync(name + '.json', JSON.stringify({ nice: require('os').getPriority(), seen, after: !after || fs.existsSync(after + '.done') }));
  setTimeout(() => fs.writeFileSync(name + '.done', ''), 300);
};
wait();
`,
    );
    const step = (name: string, beside = '', after = ''): string => `node step.cjs ${name} ${beside} ${after}`.trim();
    const scripts = {
      typecheck: step('typecheck', 'e2e'),
      lint: `${step('lint', 'e2e', 'typecheck')} && echo a lint finding && exit 4`,
      'test:unit': `${step('unit', 'e2e')} && exit 3`,
      'test:e2e': `${step('e2e', 'unit')} && echo a browser test line`,
    };
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts }));
    for (const script of ['test-all.js', 'slowest-tests.js']) await copyFile(join(ROOT, 'scripts', script), join(dir, script));
    const result = spawnSync(process.execPath, ['test-all.js'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect((await readdir(dir)).filter((f) => f.endsWith('.done')).sort()).toEqual([
      'e2e.done',
      'lint.done',
      'typecheck.done',
      'unit.done',
    ]);
    expect(result.stderr).toContain('Failed: lint (npm run lint: 4); unit and integration tests (npm run test:unit: 3)');
    // The lint's and the browser tests' output held back until each ended, and shown under its name.
    expect(result.stdout).toContain('[lint]\na lint finding');
    expect(result.stdout).toContain('[browser tests]\na browser test line');

    const noted = async (name: string): Promise<{ nice: number; seen: boolean; after: boolean }> =>
      JSON.parse(await readFile(join(dir, `${name}.json`), 'utf8')) as { nice: number; seen: boolean; after: boolean };
    const [unit, e2e, typecheck, lint] = await Promise.all(['unit', 'e2e', 'typecheck', 'lint'].map(noted));
    // Vitest and the browser tests side by side, the type check beside them, the lint after the type check.
    expect([unit!.seen, e2e!.seen, typecheck!.seen, lint!.after]).toEqual([true, true, true, true]);
    // The browser tests at the priority npm test has; the others below it.
    const own = getPriority();
    expect(e2e!.nice).toBe(own);
    for (const other of [unit!, typecheck!, lint!]) expect(other.nice).toBe(Math.min(own + 10, 19));
  });

  it('ends with the time of each step and the slowest test files of both runners, slowest first', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-test-all-'));
    const scripts = { typecheck: 'node -e 0', lint: 'node -e 0', 'test:unit': 'node -e 0', 'test:e2e': 'node -e 0' };
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts }));
    for (const script of ['test-all.js', 'slowest-tests.js']) await copyFile(join(ROOT, 'scripts', script), join(dir, script));
    await mkdir(join(dir, 'test-results'));
    const vitest = {
      testResults: [
        { name: join(dir, 'tests/integration/quick.test.ts'), startTime: 1_000, endTime: 1_500 },
        { name: join(dir, 'tests/integration/slow.test.ts'), startTime: 1_000, endTime: 91_000 },
      ],
    };
    const result = (duration: number) => ({ results: [{ duration }] });
    const e2e = {
      suites: [
        { file: 'a11y.spec.ts', specs: [{ tests: [result(20_000)] }], suites: [{ specs: [{ tests: [result(25_000), result(1_000)] }] }] },
        { file: 'quick.spec.ts', specs: [{ tests: [result(200)] }] },
      ],
    };
    await writeFile(join(dir, 'test-results/vitest.json'), JSON.stringify(vitest));
    await writeFile(join(dir, 'test-results/e2e.json'), JSON.stringify(e2e));
    const run = spawnSync(process.execPath, ['test-all.js'], { cwd: dir, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split('\n');
    const slowest = lines.slice(lines.indexOf('Slowest test files:') + 1, lines.indexOf('Slowest test files:') + 5);
    expect(slowest.map((line) => line.trim().replace(/\s+/g, ' '))).toEqual([
      '90.0 s tests/integration/slow.test.ts (vitest)',
      '46.0 s tests/e2e/a11y.spec.ts (playwright)',
      '0.5 s tests/integration/quick.test.ts (vitest)',
      '0.2 s tests/e2e/quick.spec.ts (playwright)',
    ]);
    expect(run.stdout).toMatch(
      /npm test took \d+ s: type check \d+ s · lint \d+ s · unit and integration tests \d+ s · browser tests \d+ s/,
    );
  });
});
