import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.ts';

/**
 * What a command loads when it starts: the commands that send no GraphQL request (`site --version`,
 * `site preview`, the help) leave the GraphQL client's packages unloaded, which are some 150 module files.
 */
describe('site startup', () => {
  let dir: string;
  let hook: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'site-startup-'));
    hook = join(dir, 'record-modules.mjs');
    // Records the address of every module the command resolves, in the file SITE_TEST_MODULES names.
    await writeFile(
      hook,
      [
        "import { registerHooks } from 'node:module';",
        "import { appendFileSync } from 'node:fs';",
        'registerHooks({',
        '  resolve(specifier, context, next) {',
        '    const result = next(specifier, context);',
        "    appendFileSync(process.env.SITE_TEST_MODULES, result.url + '\\n');",
        '    return result;',
        '  },',
        '});',
        '',
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const modulesOf = async (args: string[]): Promise<string[]> => {
    const log = join(dir, `${args.join('-')}.log`);
    await writeFile(log, '');
    const result = await runCli(args, { env: { NODE_OPTIONS: `--import=${pathToFileURL(hook).href}`, SITE_TEST_MODULES: log } });
    expect(result.code, result.stderr).toBe(0);
    return (await readFile(log, 'utf8')).split('\n').filter(Boolean);
  };

  it.each(['--version', 'preview --help', 'publish --help'])('site %s loads neither graphql-request nor graphql', async (command) => {
    const modules = await modulesOf(command.split(' '));
    // The hook saw the command's own modules.
    expect(modules.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
    expect(modules.filter((url) => /\/node_modules\/(graphql|graphql-request)\//.test(url))).toEqual([]);
  });
});
