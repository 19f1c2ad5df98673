import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isBuildError } from '../../cli/errors/errors.ts';
import { readBuild } from '../../cli/output/output.ts';
import type { Payload } from '../../runtime/shared/contract.ts';
import { payloadFileFor } from '../../runtime/shared/paths.ts';
import { buildInProcess } from '../helpers/build-in-process.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { listFiles, snapshotTree } from '../helpers/tree.ts';

/** The command line in front of bad input and bad surroundings: clear messages, the right exit code, no stack traces. */

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'site-cli-'));
}

function expectNoStackTrace(result: CliResult): void {
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stdout).not.toMatch(/^\s+at /m);
}

/** Every file of the build in `dir` belongs to one build: latest.json, its meta, and each prerendered payload agree. */
async function expectOneCompleteBuild(dir: string): Promise<void> {
  const { latest, meta } = await readBuild(dir);
  expect(meta.prerendered.length).toBeGreaterThan(100);
  for (const path of meta.prerendered) {
    const payload = JSON.parse(await readFile(join(dir, payloadFileFor(path)), 'utf8')) as Payload;
    expect(payload.buildId, path).toBe(latest.id);
  }
  expect((await listFiles(join(dir, '_assets/builds/meta'))).length).toBe(1);
}

describe('usage errors', () => {
  const USAGE: [string, string[], string[]][] = [
    ['an unknown option', ['build', '--no-such-flag'], ['--no-such-flag', '--help']],
    ['an unknown command', ['biuld'], ['biuld']],
    [
      'an endpoint that is not a URL',
      ['build', '--endpoint', 'localhost:4000'],
      ["[InvalidOption] Expected --endpoint to be an absolute http(s) URL such as http://127.0.0.1:4000/graphql, got 'localhost:4000'."],
    ],
    [
      'an endpoint with another scheme',
      ['build', '--endpoint', 'ftp://example.org/graphql'],
      ['Expected --endpoint to be an absolute http(s) URL'],
    ],
    ['a base URL with spaces', ['build', '--base-url', 'https://exa mple.org'], ['Expected --base-url to be an absolute http(s) URL']],
    [
      'a public endpoint that is relative',
      ['build', '--public-endpoint', '/graphql'],
      ['Expected --public-endpoint to be an absolute http(s) URL'],
    ],
    ['a timeout with a unit', ['build', '--timeout', '10s'], ["Expected --timeout to be an integer from 1 to 600000, got '10s'."]],
    ['negative retries', ['build', '--retries', '-1'], ["Expected --retries to be an integer from 0 to 20, got '-1'."]],
    ['a fractional concurrency', ['build', '--concurrency', '1.5'], ["Expected --concurrency to be an integer from 1 to 256, got '1.5'."]],
    [
      'a retry delay that is not a number',
      ['build', '--retry-delay', 'soon'],
      ["Expected --retry-delay to be an integer from 0 to 60000, got 'soon'."],
    ],
    ['a port out of range', ['content', 'serve', '--port', '70000'], ["Expected --port to be an integer from 0 to 65535, got '70000'."]],
  ];

  it.each(USAGE)('%s exits with code 2 and says what to pass, without a stack trace', async (_name, args, expected) => {
    const result = await runCli(args, { env: { GRAPHQL_ENDPOINT: undefined, SITE_URL: undefined } });
    expect(result.code).toBe(2);
    for (const text of expected) expect(result.stderr).toContain(text);
    expect(result.stderr).toMatch(/--help|Hint: /);
    expectNoStackTrace(result);
  });

  it('a SOURCE_DATE_EPOCH that is not a number exits with code 2, naming the variable', async () => {
    const result = await runCli(['build', '--out', join(await tempDir(), 'site')], { env: { SOURCE_DATE_EPOCH: 'yesterday' } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Expected SOURCE_DATE_EPOCH to be an integer from 0 to 1099511627776, got 'yesterday'.");
    expectNoStackTrace(result);
  });
});

describe('output folders', () => {
  it('an output folder that cannot be created exits with code 1, naming it and what to do', async () => {
    const result = await runCli(['build', '--out', '/proc/site-output']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[OutputNotWritable] The output folder /proc');
    expect(result.stderr).toContain('Choose a folder you can write to with --out');
    expectNoStackTrace(result);
  });

  it('an output path below a file exits with code 1 and leaves the file alone', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'notes.txt'), 'not a folder');
    const result = await runCli(['build', '--out', join(dir, 'notes.txt/site')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[OutputNotWritable]');
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('not a folder');
    expectNoStackTrace(result);
  });

  it('a folder that does not hold a previous build is never emptied, and nothing is left beside it', async () => {
    const dir = await tempDir();
    const out = join(dir, 'my-documents');
    await mkdir(join(out, 'thesis'), { recursive: true });
    await writeFile(join(out, 'thesis/chapter-1.md'), '# One');
    await writeFile(join(out, 'index.html'), '<p>my own page</p>');
    const before = await snapshotTree(out);
    const result = await runCli(['build', '--out', out, '--no-report']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `[OutputNotASite] The output folder ${out} exists, is not empty and does not hold a previous build of this site.`,
    );
    expect(result.stderr).toContain('the build never replaces a folder it did not write');
    expect(await snapshotTree(out)).toEqual(before);
    expect(await readdir(dir)).toEqual(['my-documents']);
    expectNoStackTrace(result);
  });

  it('previewing a folder that holds no build exits with code 1 and says to build first', async () => {
    const result = await runCli(['preview', '--out', join(await tempDir(), 'missing'), '--port', '0']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[OutputMissing] There is no built site in ');
    expect(result.stderr).toContain('Run `site build` first');
    expectNoStackTrace(result);
  });
});

describe('two builds into one output folder', () => {
  it('cannot run at once: one fails with OutputLocked while the other writes one complete build', async () => {
    const out = join(await tempDir(), 'site');
    const results = await Promise.allSettled([buildInProcess({ outDir: out }), buildInProcess({ outDir: out })]);
    // Whichever takes the lock first builds; the other is refused.
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const error = (results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason as unknown;
    expect(isBuildError(error) && error.code).toBe('OutputLocked');
    expect((error as Error).message).toContain(`Another build (process ${process.pid} on ${hostname()}, started `);
    await expectOneCompleteBuild(out);
    expect(await readdir(join(out, '..'))).toEqual(['site']);
  }, 120_000);

  it('started together from the command line, leave one complete, consistent build into a folder that did not exist', async () => {
    const out = join(await tempDir(), 'deploy/www/site');
    const results = await Promise.all([
      runCli(['build', '--out', out, '--quiet', '--no-report']),
      runCli(['build', '--out', out, '--quiet', '--no-report']),
    ]);
    const codes = results.map((r) => r.code).sort();
    // Usually one is refused; on a slow machine the second may start after the first finished and simply build again.
    expect(codes[0]).toBe(0);
    for (const r of results) {
      if (r.code !== 0) {
        expect(r.code).toBe(1);
        expect(r.stderr).toContain('[OutputLocked] Another build (process ');
        expect(r.stderr).toContain(`lock file ${out}.lock`);
      }
      expectNoStackTrace(r);
    }
    await expectOneCompleteBuild(out);
    expect(await readdir(join(out, '..'))).toEqual(['site']);
  }, 240_000);

  it('a lock left by a build that was killed does not block the next build', async () => {
    const out = join(await tempDir(), 'site');
    const dead = await deadPid();
    await writeFile(`${out}.lock`, JSON.stringify({ pid: dead, host: hostname(), startedAt: '2020-01-01T00:00:00.000Z', token: 'killed' }));
    await mkdir(join(out, '..', '.site.staging-' + dead + '-abcd'), { recursive: true });
    const result = await runCli(['build', '--out', out, '--quiet', '--no-report']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    await expectOneCompleteBuild(out);
    expect(await readdir(join(out, '..'))).toEqual(['site']);
  }, 120_000);

  it('a lock held by a running build fails at once with code 1, naming its process and the lock file', async () => {
    const out = join(await tempDir(), 'site');
    await writeFile(
      `${out}.lock`,
      JSON.stringify({ pid: process.pid, host: hostname(), startedAt: '2026-01-01T00:00:00.000Z', token: 'live' }),
    );
    const result = await runCli(['build', '--out', out, '--quiet', '--no-report']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `[OutputLocked] Another build (process ${process.pid} on ${hostname()}, started 2026-01-01T00:00:00.000Z; lock file ${out}.lock) is writing to ${out}.`,
    );
    expect(result.stderr).toContain('If no build is running, delete the lock file');
    expect(result.ms).toBeLessThan(30_000);
    expectNoStackTrace(result);
  });
});

/** The pid of a process that has exited. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('error', reject);
    child.on('exit', () => resolve(child.pid!));
  });
}
