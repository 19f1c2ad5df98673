import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import type { BuildReport } from '../../cli/report/report.ts';
import { ROOT, runCli, SITE_BIN, type CliResult } from '../helpers/cli.ts';

/** The escape character that starts every terminal control sequence. */
const ESC = String.fromCharCode(27);

/**
 * Runs the real CLI on a pseudo-terminal (util-linux `script`, no native module), as a developer
 * would, and returns everything the terminal received.
 */
function runOnTerminal(args: string[]): Promise<{ code: number | null; output: string }> {
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = [process.execPath, SITE_BIN, ...args].map(quote).join(' ');
  const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'production', TERM: 'xterm-256color' };
  delete env.CI;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe('site build without a terminal (CI, pipes)', () => {
  let out: string;
  let result: CliResult;

  beforeAll(async () => {
    out = join(await mkdtemp(join(tmpdir(), 'site-output-')), 'site');
    result = await runCli(['build', '--out', out], { env: { CI: 'true' } });
  }, 240_000);

  it('prints plain stage lines with counts and times, and no escape codes', () => {
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain(ESC);
    expect(result.stdout).toMatch(/^\[crawl\] \d+ pages from \d+ routes in \d/m);
    expect(result.stdout).toMatch(/^\[query\] \d+ pages from \d+ routes, \d+ requests in \d+ ms$/m);
    expect(result.stdout).toMatch(/^\[write\] \d+ pages, [\d.]+ MiB in \d+ ms( \(\d+ on \d+ render threads?\))?$/m);
    expect(result.stdout).toMatch(/^\[check\] \d+ pages checked: no problems$/m);
    for (const line of result.stdout.trim().split('\n')) expect(line).toMatch(/^\[[a-z]+\] /);
  });

  it('ends with a summary of pages per route, output size, largest pages and payloads, slowest queries and warnings', () => {
    const summary = result.stdout.split('\n').filter((l) => l.startsWith('[summary]'));
    // formatDuration's forms: 830 ms, 4.2 s, 1 min 5 s (a loaded machine).
    expect(summary[0]).toMatch(/^\[summary\] pages +\d+ in (\d+ min )?[\d.]+ m?s \(build [0-9a-f]+\), \d+ GraphQL requests$/);
    expect(result.stdout).toMatch(/^\[summary\] routes +.*news-article \d+/m);
    expect(result.stdout).toMatch(/^\[summary\] output +\d+ files, [\d.]+ MiB: pages [\d.]+ [KM]iB · assets .* · media .* · other .*$/m);
    expect(result.stdout).toMatch(/^\[summary\] largest +\/\S* [\d.]+ KiB · /m);
    expect(result.stdout).toMatch(/^\[summary\] payloads +\/\S* [\d.]+ KiB · /m);
    expect(result.stdout).toMatch(/^\[summary\] slowest +[A-Z]\w+.* \d+ ms · /m);
    expect(summary.at(-1)).toBe(`[summary] warnings  none; report: ${join(dirname(out), 'build-report.json')}`);
  });

  it('writes build-report.json beside the output folder, never into what gets published', async () => {
    expect(await readdir(out)).not.toContain('build-report.json');
    const report = JSON.parse(await readFile(join(dirname(out), 'build-report.json'), 'utf8')) as BuildReport;
    const latest = JSON.parse(await readFile(join(out, '_assets/builds/latest.json'), 'utf8')) as { id: string };
    expect(report).toMatchObject({ version: 1, status: 'succeeded', buildId: latest.id, outDir: out, warnings: [], error: null });
    expect(report.stages.map((s) => s.name)).toEqual(expect.arrayContaining(['bundle', 'crawl', 'query', 'render', 'write']));
    expect(report.pages.total).toBeGreaterThan(120);
    expect(Object.values(report.pages.byRoute).reduce((a, b) => a + b, 0)).toBe(report.pages.total);
    expect(report.pages.byRoute['news-article']).toBeGreaterThan(10);
    expect(report.output!.byKind.media.files).toBeGreaterThan(50);
    expect(report.largestPages[0]!.bytes).toBeGreaterThanOrEqual(report.largestPages[1]!.bytes);
    expect(report.largestPayloads).toHaveLength(10);
    expect(report.slowestQueries[0]!.ms).toBeGreaterThanOrEqual(report.slowestQueries.at(-1)!.ms);
    expect(report.requests).toBeGreaterThan(0);
  });
});

describe('site build on a terminal', () => {
  let backend: ContentServer;
  beforeAll(async () => {
    // A few thousand pages keep every stage on screen for several frames, however fast the machine.
    backend = await startContentServer({ scale: 2000 });
  });
  afterAll(() => backend.close());

  it('draws a live progress line per running stage, redrawn in place, then the same stage lines and summary', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'site-tty-')), 'site');
    const { code, output } = await runOnTerminal(['build', '--endpoint', backend.url, '--out', out, '--no-report']);
    expect(code).toBe(0);
    // A frame: a spinner, the stage name, a count of pages; the next frame moves up over it and clears it.
    expect(output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (crawl|query) +[\d,]+ pages, [\d,]+\/s/);
    expect(output).toMatch(new RegExp(`${ESC}\\[\\d+F${ESC}\\[0J`));
    // Pages render while the crawl still finds more: a count and a rate until the crawl ends, then a bar and the time left.
    expect(output).toMatch(
      /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] (render|write) +([█░]{20} [\d,]+\/[\d,]+ pages \(\d+%\), [\d,]+\/s, about [\d.]+ m?s left|[\d,]+ pages, [\d,]+\/s)/,
    );
    expect(output).toMatch(/\[write\] \d+ pages, [\d.]+ MiB in \d+ ms/);
    expect(output).toMatch(/\[summary\] warnings {2}/);
  }, 240_000);
});

describe('site build --quiet', () => {
  it('prints nothing when nothing is wrong, on a terminal too', async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'site-quiet-')), 'site');
    const { code, output } = await runOnTerminal(['build', '--out', out, '--quiet']);
    expect(code).toBe(0);
    expect(output.trim()).toBe('');
  }, 240_000);
});
