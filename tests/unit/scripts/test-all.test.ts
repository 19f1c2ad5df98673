import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';

/** `npm test` runs every suite even when one failed, so CI's closing line counts them all (issue 17.7). */
describe('npm test', () => {
  it('runs the browser tests after a failed unit test, and still fails, naming what failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'site-test-all-'));
    const mark = (name: string): string => `node -e "require('fs').writeFileSync('${name}.ran', '')"`;
    const scripts = { typecheck: mark('typecheck'), lint: mark('lint'), 'test:unit': `${mark('unit')} && exit 3`, 'test:e2e': mark('e2e') };
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module', scripts }));
    await copyFile(join(ROOT, 'scripts/test-all.js'), join(dir, 'test-all.js'));
    const result = spawnSync(process.execPath, ['test-all.js'], { cwd: dir, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect((await readdir(dir)).filter((f) => f.endsWith('.ran')).sort()).toEqual(['e2e.ran', 'lint.ran', 'typecheck.ran', 'unit.ran']);
    expect(result.stderr).toContain('Failed: unit and integration tests (npm run test:unit: 3)');
  });
});
