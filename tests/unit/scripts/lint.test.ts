import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';

/** `npm run lint`: ESLint, the formatter's check, and the architecture tests that keep comments and docs true. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-lint-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Runs the project's Prettier, with the project's settings, over one file: its exit status and what it said. */
function prettierCheck(file: string): { status: number | null; output: string } {
  const bin = join(ROOT, 'node_modules/prettier/bin/prettier.cjs');
  const result = spawnSync(process.execPath, [bin, '--check', '--config', join(ROOT, '.prettierrc.json'), file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('npm run lint', () => {
  it('checks the formatting of every code file, and the comments, docs and environment variables the architecture tests check', async () => {
    const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.lint).toContain('prettier --check .');
    expect(scripts.lint).toContain('tests/unit/architecture/references.test.ts');
    expect(scripts.lint).toContain('tests/unit/architecture/environment.test.ts');
    expect(scripts.test).toBe('node scripts/test-all.js');
  });

  it("runs its architecture tests without replacing the suite's report, which it runs after and CI counts", async () => {
    const { scripts } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const architecture = scripts.lint!.split('&&').at(-1)!.trim();
    expect(architecture).toMatch(/^vitest run /);
    const report = join(ROOT, 'test-results/vitest.json');
    const before = await readFile(report, 'utf8').catch(() => null);
    const bin = join(ROOT, 'node_modules/.bin');
    const run = spawnSync(architecture, {
      cwd: ROOT,
      shell: true,
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(await readFile(report, 'utf8').catch(() => null)).toBe(before);
  });

  it("fails on a file the formatter would change, naming it, and passes it once formatted as the project's settings say", async () => {
    const unformatted = join(dir, 'unformatted.ts');
    await writeFile(unformatted, 'export const  pages = [ "a",\n"b" ]\n');
    const refused = prettierCheck(unformatted);
    expect(refused.status).not.toBe(0);
    expect(refused.output).toContain('unformatted.ts');
    const formatted = join(dir, 'formatted.ts');
    await writeFile(formatted, "export const pages = ['a', 'b'];\n");
    expect(prettierCheck(formatted)).toMatchObject({ status: 0 });
  });
});
