import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';

/** `npm run typecheck` (scripts/typecheck.js): TypeScript 7's compiler over each project, failing on a type error. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-typecheck-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A project in `dir/name` with the repository's strict settings and one file. */
async function project(name: string, source: string): Promise<string> {
  const folder = join(dir, name);
  await mkdir(folder, { recursive: true });
  await writeFile(
    join(folder, 'tsconfig.json'),
    JSON.stringify({ extends: join(ROOT, 'tsconfig.base.json'), compilerOptions: { types: [] }, include: ['.'] }),
  );
  await writeFile(join(folder, 'index.ts'), source);
  return folder;
}

function typecheck(...projects: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [join(ROOT, 'scripts/typecheck.js'), ...projects], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('npm run typecheck', () => {
  it('passes a project without type errors; fails when one has a type error, naming its file, line and project, though a project after it passes', async () => {
    const good = await project('good', 'export const count: number = 1;\n');
    const bad = await project('bad', 'export const good = 1;\nexport const count: number = "one";\n');
    expect(typecheck(good)).toMatchObject({ status: 0 });
    const { status, output } = typecheck(bad, good);
    expect(status).toBe(1);
    expect(output).toMatch(/index\.ts\(2,14\): error TS2322: Type 'string' is not assignable to type 'number'/);
    expect(output).toContain(`Type errors in ${bad}.`);
  });

  it("uses the strict settings the repository's projects share: an implicit any fails", async () => {
    const loose = await project('loose', 'export function twice(n) {\n  return n * 2;\n}\n');
    const { status, output } = typecheck(loose);
    expect(status).toBe(1);
    expect(output).toMatch(/error TS7006: Parameter 'n' implicitly has an 'any' type/);
  });
});
