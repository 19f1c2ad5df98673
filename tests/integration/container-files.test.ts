import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.ts';
import { S3_ENV, startS3Server, type S3TestServer } from '../helpers/s3-server.ts';

/**
 * The container image (Dockerfile; docs/sharding.md, "The container image") cannot be built on these
 * machines (no container engine), so what it relies on is tested here: the files its COPY lines copy,
 * and nothing else, with production dependencies only (`npm ci --omit=dev`), run `site build` against
 * the embedded backend and `site publish --dry-run`, from a clean folder.
 */

/** The sources of the Dockerfile's COPY lines that copy from the build context (not `--from` a stage). */
function copiedFiles(dockerfile: string): string[] {
  const files: string[] = [];
  for (const line of dockerfile.split('\n')) {
    const words = line.trim().split(/\s+/);
    if (words[0]?.toUpperCase() !== 'COPY' || words.some((w) => w.startsWith('--from'))) continue;
    const args = words.slice(1).filter((w) => !w.startsWith('--'));
    files.push(...args.slice(0, -1));
  }
  return files;
}

let dir: string;
let s3: S3TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'container-files-'));
}, 60_000);

afterAll(async () => {
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("the container image's files", () => {
  const app = (): string => join(dir, 'app');

  it('are what the Dockerfile copies: the package files, bin/, the sources and the build configuration', async () => {
    const files = copiedFiles(await readFile(join(ROOT, 'Dockerfile'), 'utf8'));
    expect(files).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'bin', 'cli']));
    for (const file of files)
      await cp(join(ROOT, file), join(app(), file), {
        recursive: true,
        filter: (source) => !source.includes(`${join(ROOT, file)}/node_modules`),
      });
    expect((await readdir(app())).sort()).toEqual([...files].sort());
  });

  it('install with production dependencies only', async () => {
    // From npm's cache where it can (this machine installed the same lock file), the registry otherwise.
    const installed = await run('npm', ['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], app());
    expect(installed.code, installed.output).toBe(0);
    // No development dependency came with them.
    for (const dev of ['vitest', '@playwright/test', 'typescript', 'eslint', 'lighthouse'])
      await expect(stat(join(app(), 'node_modules', dev)), dev).rejects.toThrow();
    await stat(join(app(), 'node_modules', 'tsx'));
  }, 600_000);

  it('build the site against the embedded backend', async () => {
    const built = await runCli(['build', '--out', join(dir, 'site'), '--cache-dir', join(dir, 'cache'), '--quiet'], {
      script: join(app(), 'bin/site.js'),
      cwd: app(),
      timeoutMs: 300_000,
    });
    expect(built.code, built.stderr).toBe(0);
    // Compiled once (bin/compile-cli.js) inside the clean folder: no TypeScript loader at run time.
    expect((await readdir(join(app(), 'node_modules/.cache/site-cli'))).length).toBe(1);
    expect(await readFile(join(dir, 'site/index.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);
    expect((await readdir(join(dir, 'site/_assets'))).length).toBeGreaterThan(0);
    expect((await readdir(join(dir, 'site/_search'))).length).toBeGreaterThan(0);
    expect((await readdir(join(dir, 'site/media'))).length).toBeGreaterThan(0);
  }, 300_000);

  it('publish it, as a dry run, to an S3-compatible server', async () => {
    s3 = await startS3Server();
    const published = await runCli(
      ['publish', '--out', join(dir, 'site'), '--bucket', s3.bucket, '--endpoint-url', s3.endpoint, '--dry-run'],
      { script: join(app(), 'bin/site.js'), cwd: app(), env: S3_ENV },
    );
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toContain('(dry run)');
    // Nothing was written.
    expect(s3.requests.filter((r) => r.method === 'PUT' || r.method === 'DELETE')).toEqual([]);
  }, 120_000);
});

/** Runs a command with the Node.js this test runs on first on the PATH (npm's scripts run with it). */
function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}
