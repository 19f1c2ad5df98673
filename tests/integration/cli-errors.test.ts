import { createServer, type Server } from 'node:net';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

/** The option entries of a help text: each starts with `  -` and runs until the next one or a blank line. */
function optionEntries(help: string): string[] {
  const entries: string[] = [];
  let inOption = false;
  for (const line of help.split('\n')) {
    if (/^ {2}-/.test(line)) {
      entries.push(line.trim());
      inOption = true;
    } else if (inOption && /^ {4,}\S/.test(line)) entries[entries.length - 1] += ' ' + line.trim();
    else inOption = false;
  }
  // Help and version only print something: they have no setting to default.
  return entries.filter((e) => !e.startsWith('-h, --help') && !e.startsWith('-V, --version'));
}

describe('site --help and each command’s help', () => {
  it('list every option of every command with its default', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    for (const command of ['build', 'preview', 'publish', 'dev', 'content serve'])
      expect(top.stdout).toContain(`Options of site ${command}:`);
    const entries = optionEntries(top.stdout);
    expect(entries.length).toBeGreaterThanOrEqual(35);
    for (const entry of entries) expect(entry, entry).toMatch(/default|required/i);
    expect(top.stdout).toContain('Flags override the environment variables named above, which override `build` in site/site.config.ts');

    for (const command of [['build'], ['preview'], ['publish'], ['dev'], ['content', 'serve']]) {
      const help = await runCli([...command, '--help']);
      const own = optionEntries(help.stdout);
      expect(own.length, command.join(' ')).toBeGreaterThan(1);
      for (const entry of own) expect(entry, `${command.join(' ')}: ${entry}`).toMatch(/default|required/i);
      // The top-level help shows each command's options exactly as the command's own help does.
      for (const entry of own) expect(entries).toContain(entry);
    }
  }, 120_000);
});

describe('every error the CLI prints', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    taken = createServer();
    await new Promise<void>((ok) => taken.listen(0, '127.0.0.1', ok));
    port = (taken.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((ok) => taken.close(() => ok())));

  it.each([
    ['an unknown option', ['build', '--bogus'], 2, 'UsageError', "The command line is not valid: unknown option '--bogus'."],
    [
      'a missing option value',
      ['build', '--out'],
      2,
      'UsageError',
      "The command line is not valid: option '--out <dir>' argument missing.",
    ],
    ['an unknown command', ['bulid'], 2, 'UsageError', "The command line is not valid: unknown command 'bulid'"],
    [
      'a bad number',
      ['build', '--payload-budget', 'lots'],
      2,
      'InvalidOption',
      "Expected --payload-budget to be an integer from 1 to 2147483647, got 'lots'",
    ],
    [
      'a folder without a build',
      ['preview', '--out', '/nonexistent/site'],
      1,
      'OutputMissing',
      'There is no built site in /nonexistent/site',
    ],
  ])('has a code, names what failed and says what to do: %s', async (_what, args, exit, code, message) => {
    const result = await runCli(args);
    expect(result.code).toBe(exit);
    expect(result.stderr).toMatch(new RegExp(`^\\[${code}\\] `));
    expect(result.stderr).toContain(message);
    expect(result.stderr).toMatch(/^Hint: \S.+$/m);
  });

  it('has a code, names the port and says what to do when the port is taken', async () => {
    const result = await runCli(['content', 'serve', '--port', String(port)]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`[PortInUse] Port ${port} on 127.0.0.1 is already in use.`);
    expect(result.stderr).toMatch(/^Hint: .*--port/m);
  });

  it('has a code, names the file and says what to do when the content overrides are unusable', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'site-errors-')), 'overrides.json');
    await writeFile(file, '{ not json');
    const result = await runCli(['build', '--out', join(file, '..', 'site')], { env: { CONTENT_OVERRIDES_FILE: file } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `[BackendFailed] The embedded content backend could not be started: CONTENT_OVERRIDES_FILE ${file} is not valid JSON`,
    );
    expect(result.stderr).toMatch(/^Hint: .*CONTENT_OVERRIDES_FILE/m);
  }, 120_000);
});

describe('an error that quotes the content backend', () => {
  it('shows its control characters rather than sending them to the terminal', async () => {
    const { startTestServer } = await import('../helpers/http-server.ts');
    // A backend whose error message would retitle the terminal and erase the line before it.
    const backend = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'No site here\u001b]0;owned\u0007\u001b[1A\u001b[2K' }] }));
    });
    try {
      const out = join(await mkdtemp(join(tmpdir(), 'site-errors-')), 'site');
      const result = await runCli(['build', '--endpoint', backend.url, '--out', out, '--retries', '0']);
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('No site here\\x1b]0;owned\\x07\\x1b[1A\\x1b[2K');
      const controls = [...(result.stderr + result.stdout)].filter(
        (c) => (c < ' ' && c !== '\n' && c !== '\t') || (c >= '\u007f' && c <= '\u009f'),
      );
      expect(controls).toEqual([]);
    } finally {
      await backend.close();
    }
  }, 120_000);
});
