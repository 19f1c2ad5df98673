import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SITE_BIN = fileURLToPath(new URL('../../bin/site.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the real `site` command as a user would, and collects its output. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; timeoutMs?: number; cwd?: string; script?: string } = {},
): Promise<CliResult> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.script ?? SITE_BIN, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { ...process.env, NODE_ENV: 'production', ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/**
 * Builds the sample site with the real CLI into `site/` of a new temporary folder named `{prefix}…`;
 * `root` is that folder, for the caller to remove. Throws with the CLI's output when the build fails.
 */
export async function buildSampleSite(prefix: string): Promise<{ root: string; dir: string }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const dir = join(root, 'site');
  const result = await runCli(['build', '--out', dir, '--quiet']);
  if (result.code !== 0) throw new Error(`The site build failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  return { root, dir };
}

/** Starts `site preview` on `root` at a free port; its address, what it printed on stderr, and how to stop it. */
export async function startPreview(root: string): Promise<{ url: string; stderr: () => string; stop: () => void }> {
  const child = spawn(process.execPath, [SITE_BIN, 'preview', '--out', root, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    let printed = '';
    child.stdout.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const found = /at (http:\/\/127\.0\.0\.1:\d+)\//.exec(printed);
      if (found) resolve(found[1]!);
    });
    child.on('exit', (code) => reject(new Error(`site preview exited with ${code}: ${printed}${stderr}`)));
  });
  return { url, stderr: () => stderr, stop: () => void child.kill() };
}
