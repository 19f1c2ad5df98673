import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ROOT, runCli, SITE_BIN } from '../helpers/cli.ts';

describe('site', () => {
  it('prints its version with --version and -V', async () => {
    const { version } = JSON.parse(await readFile(`${ROOT}/package.json`, 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = await runCli([flag]);
      expect(result.code).toBe(0);
      expect(result.stdout.trim()).toBe(version);
    }
  });

  it('ends quietly with code 0 when the reader of its output goes away (site --help | head -1)', async () => {
    const child = spawn(process.execPath, [SITE_BIN, '--help'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The reader is gone before the help is written, as when head has had its lines.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
