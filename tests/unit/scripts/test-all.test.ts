import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { getPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';

/** `npm test` runs every suite even when one failed, so CI's closing line counts them all (issue 17.7). */
describe('npm test', () => {
  it('runs the browser tests after a failed unit test, and the lint beside the unit tests, and still fails, naming what failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-test-all-'));
    // Each step records the priority it ran at.
    const mark = (name: string): string => `node -e "require('fs').writeFileSync('${name}.ran', String(require('os').getPriority()))"`;
    const scripts = {
      typecheck: mark('typecheck'),
      lint: `${mark('lint')} && echo a lint finding && exit 4`,
      'test:unit': `${mark('unit')} && exit 3`,
      'test:e2e': mark('e2e'),
    };
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts }));
    for (const script of ['test-all.js', 'slowest-tests.js', 'scratch-dir.js'])
      await copyFile(join(ROOT, 'scripts', script), join(dir, script));
    const result = spawnSync(process.execPath, ['test-all.js'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect((await readdir(dir)).filter((f) => f.endsWith('.ran')).sort()).toEqual(['e2e.ran', 'lint.ran', 'typecheck.ran', 'unit.ran']);
    expect(result.stderr).toContain('Failed: lint (npm run lint: 4); unit and integration tests (npm run test:unit: 3)');
    // The lint ran beside the unit tests, its output held back until it ended, and shown.
    expect(result.stdout).toContain('[lint]\na lint finding');
    // The type check and the lint at the lowest priority, beside the unit tests; the suites at this process's.
    const priority = async (name: string): Promise<number> => Number(await readFile(join(dir, `${name}.ran`), 'utf8'));
    expect(await Promise.all(['typecheck', 'lint', 'unit', 'e2e'].map(priority))).toEqual([19, 19, getPriority(), getPriority()]);
  });

  it('passes a SIGTERM sent to it alone on to the runner, which then stops and cleans up', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-test-all-'));
    // The unit run writes its pid, then waits; told to stop, it records the signal and ends.
    await writeFile(
      join(dir, 'unit.cjs'),
      `const fs = require('fs'); process.on('SIGTERM', () => { fs.writeFileSync('unit.stopped', 'SIGTERM'); process.exit(143); }); fs.writeFileSync('unit.pid', String(process.pid)); setInterval(() => {}, 1000);`,
    );
    const scripts = { typecheck: 'node -e 0', lint: 'node -e 0', 'test:unit': 'node unit.cjs', 'test:e2e': 'node -e 0' };
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts }));
    for (const script of ['test-all.js', 'slowest-tests.js', 'scratch-dir.js'])
      await copyFile(join(ROOT, 'scripts', script), join(dir, script));
    const run = spawn(process.execPath, ['test-all.js'], { cwd: dir, stdio: 'ignore', env: { ...process.env, TEST_TMPDIR: dir } });
    const ended = new Promise<number | null>((resolve) => run.on('close', (code) => resolve(code)));
    const until = async (check: () => boolean, ms: number): Promise<boolean> => {
      for (const stop = Date.now() + ms; Date.now() < stop; await new Promise((resolve) => setTimeout(resolve, 50)))
        if (check()) return true;
      return check();
    };
    expect(await until(() => existsSync(join(dir, 'unit.pid')), 15_000)).toBe(true);
    run.kill('SIGTERM');
    expect(await ended).toBe(143);
    await until(() => existsSync(join(dir, 'unit.stopped')), 5_000);
    const pid = Number(await readFile(join(dir, 'unit.pid'), 'utf8'));
    const gone = (): boolean => {
      try {
        process.kill(pid, 0);
        return false;
      } catch {
        return true;
      }
    };
    try {
      expect(existsSync(join(dir, 'unit.stopped'))).toBe(true);
      expect(await until(gone, 5_000)).toBe(true);
    } finally {
      // A runner left running (the signal not passed on) is not left behind by the test.
      if (!gone()) process.kill(pid, 'SIGKILL');
    }
  });

  it('gives both runners one folder to share, which is gone after them, and their temporary folder (TEST_TMPDIR when set)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-test-all-'));
    const scratch = join(dir, 'scratch');
    await mkdir(scratch);
    // Each suite writes a file into the folder it was given and records the folder's name and its TMPDIR.
    const share = (name: string): string =>
      `node -e "const d = process.env.TEST_SHARED_DIR; require('fs').writeFileSync(d + '/${name}', ''); require('fs').writeFileSync('${name}.dir', d + ' ' + require('fs').readdirSync(d).sort().join(',') + ' ' + process.env.TMPDIR)"`;
    const scripts = { typecheck: 'node -e 0', lint: 'node -e 0', 'test:unit': share('unit'), 'test:e2e': share('e2e') };
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts }));
    for (const script of ['test-all.js', 'slowest-tests.js', 'scratch-dir.js'])
      await copyFile(join(ROOT, 'scripts', script), join(dir, script));
    const result = spawnSync(process.execPath, ['test-all.js'], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, KEEP_TEST_TMP: '', TEST_TMPDIR: scratch },
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(`Temporary files of the tests go to ${scratch}: TEST_TMPDIR`);
    const [unitDir, unitSaw, unitTmp] = (await readFile(join(dir, 'unit.dir'), 'utf8')).split(' ');
    const [e2eDir, e2eSaw, e2eTmp] = (await readFile(join(dir, 'e2e.dir'), 'utf8')).split(' ');
    expect([unitTmp, e2eTmp]).toEqual([scratch, scratch]);
    expect(unitDir).toMatch(new RegExp(`^${scratch}/site-test-shared-`));
    expect(e2eDir).toBe(unitDir);
    // The browser tests find what the unit run left there.
    expect([unitSaw, e2eSaw]).toEqual(['unit', 'e2e,unit']);
    expect(existsSync(unitDir!)).toBe(false);
  });

  it('ends with the time of each step and the slowest test files of both runners, slowest first', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-test-all-'));
    const scripts = { typecheck: 'node -e 0', lint: 'node -e 0', 'test:unit': 'node -e 0', 'test:e2e': 'node -e 0' };
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts }));
    for (const script of ['test-all.js', 'slowest-tests.js', 'scratch-dir.js'])
      await copyFile(join(ROOT, 'scripts', script), join(dir, script));
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
