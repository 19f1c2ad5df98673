import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compiledCli } from '../../../bin/compile-cli.js';

/** The CLI runs compiled once per version of its sources (bin/compile-cli.js), on a small project of its shape. */
describe('compiledCli', () => {
  let root: string;
  let cache: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'compile-cli-'));
    cache = join(root, 'cache');
    await mkdir(join(root, 'cli/render'), { recursive: true });
    await mkdir(join(root, 'cli/bundle'), { recursive: true });
    await mkdir(join(root, 'runtime'));
    await writeFile(
      join(root, 'cli/main.ts'),
      "import { note } from '../runtime/note.ts';\nconst here: string = import.meta.url;\nconsole.log(JSON.stringify({ note, here }));\n",
    );
    await writeFile(join(root, 'cli/render/render-thread.ts'), "console.log('thread');\n");
    await writeFile(join(root, 'cli/bundle/bundle-thread.ts'), "console.log('bundle thread');\n");
    await writeFile(join(root, 'runtime/note.ts'), "export const note: string = 'one';\n");
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const run = (dir: string): { note: string; here: string } =>
    JSON.parse(execFileSync(process.execPath, [join(dir, 'main.js')], { encoding: 'utf8' })) as { note: string; here: string };

  it('compiles the sources to JavaScript that runs without a loader, each module keeping its own URL', async () => {
    const dir = await compiledCli(root, cache);
    expect(dir).not.toBeNull();
    // The code finds files beside its source (the project root, the schema), wherever it was compiled to.
    expect(run(dir!)).toEqual({ note: 'one', here: pathToFileURL(join(root, 'cli/main.ts')).href });
    expect(await readdir(dir!)).toEqual(expect.arrayContaining(['main.js', 'render-thread.js', 'bundle-thread.js']));
  });

  it('reuses the compiled files until a source changes, then compiles the new version', async () => {
    const first = (await compiledCli(root, cache))!;
    const compiledAt = (await stat(join(first, 'main.js'))).mtimeMs;
    expect(await compiledCli(root, cache)).toBe(first);
    expect((await stat(join(first, 'main.js'))).mtimeMs).toBe(compiledAt);

    await writeFile(join(root, 'runtime/note.ts'), "export const note: string = 'two';\n");
    const second = (await compiledCli(root, cache))!;
    expect(second).not.toBe(first);
    expect(run(second).note).toBe('two');

    // Any file the code may import counts, not only code.
    await writeFile(join(root, 'runtime/strings.json'), '{"a":1}');
    const third = (await compiledCli(root, cache))!;
    expect(third).not.toBe(second);

    // So does the client build's configuration at the project's root, which cli/bundle/bundle.ts imports.
    await writeFile(join(root, 'rollup.config.ts'), 'export const minify = false;\n');
    const fourth = (await compiledCli(root, cache))!;
    expect(fourth).not.toBe(third);

    // And what is installed of the packages compiled in: npm's record of the tree, graphql-yoga's manifest.
    await mkdir(join(root, 'node_modules/graphql-yoga'), { recursive: true });
    await writeFile(join(root, 'node_modules/.package-lock.json'), '{"packages":{"node_modules/graphql-yoga":{"version":"5.0.0"}}}');
    const fifth = (await compiledCli(root, cache))!;
    expect(fifth).not.toBe(fourth);
    await writeFile(join(root, 'node_modules/graphql-yoga/package.json'), '{"name":"graphql-yoga","version":"5.0.0-local"}');
    expect(await compiledCli(root, cache)).not.toBe(fifth);
  });

  it('compiles the same sources in another folder on their own, each module keeping the URL of its own copy', async () => {
    // Another checkout or a copy of the project, sharing node_modules and so the cache.
    const copy = join(root, 'copy');
    await mkdir(join(copy, 'cli/render'), { recursive: true });
    await mkdir(join(copy, 'cli/bundle'), { recursive: true });
    await mkdir(join(copy, 'runtime'));
    for (const file of ['cli/main.ts', 'cli/render/render-thread.ts', 'cli/bundle/bundle-thread.ts', 'runtime/note.ts'])
      await writeFile(join(copy, file), await readFile(join(root, file)));
    const first = (await compiledCli(root, cache))!;
    const second = (await compiledCli(copy, cache))!;
    expect(second).not.toBe(first);
    expect(run(second).here).toBe(pathToFileURL(join(copy, 'cli/main.ts')).href);
  });

  it('gives every command started at once the same files, and leaves no half-compiled folder', async () => {
    const dirs = await Promise.all([1, 2, 3, 4].map(() => compiledCli(root, cache)));
    expect(new Set(dirs).size).toBe(1);
    expect(run(dirs[0]!).note).toBe('one');
    expect(await readdir(cache)).toHaveLength(1);
  });

  it('answers null for sources that do not compile, so the command runs them through tsx and reports the error', async () => {
    await writeFile(join(root, 'runtime/note.ts'), 'export const note: string = ;\n');
    expect(await compiledCli(root, cache)).toBeNull();
    expect(await readdir(cache).catch(() => [])).toEqual([]);
  });
  it("leaves no esbuild service process behind once it has compiled: it would stay for the whole command's run", async () => {
    // In a process of its own, so that only compiledCli's children are counted; each child named by its
    // command line, from Linux's /proc (the build's CI and its memory figures are Linux's). esbuild's
    // stop() signals its service and returns at once: on a busy machine the process takes a moment to
    // end, so the children are looked for again for up to 5 s (a service left running stays).
    const script = `
      import { readFileSync, readdirSync } from 'node:fs';
      const { compiledCli } = await import(${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../../bin/compile-cli.js')).href)});
      const dir = await compiledCli(${JSON.stringify(root)}, ${JSON.stringify(cache)});
      const running = () => readdirSync('/proc/self/task')
        .flatMap((task) => readFileSync('/proc/self/task/' + task + '/children', 'utf8').trim().split(' ').filter(Boolean))
        .map((pid) => { try { return readFileSync('/proc/' + pid + '/cmdline', 'utf8').replaceAll('\\0', ' '); } catch { return ''; } })
        .filter(Boolean);
      let commands = running();
      for (const start = Date.now(); commands.length > 0 && Date.now() - start < 5000; commands = running()) await new Promise((r) => setTimeout(r, 50));
      console.log(JSON.stringify({ compiled: dir !== null, commands }));
    `;
    const answer = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '--eval', script], { encoding: 'utf8' })) as {
      compiled: boolean;
      commands: string[];
    };
    expect(answer).toEqual({ compiled: true, commands: [] });
  });

  it("compiles the embedded backend's server stack in, and keeps graphql and the other packages external", async () => {
    // graphql-yoga and what it imports are some 700 small files that every build with the embedded
    // backend loaded one by one; `graphql` stays one copy shared by the CLI, the backend and yoga.
    await symlink(fileURLToPath(new URL('../../../node_modules', import.meta.url)), join(root, 'node_modules'), 'dir');
    await writeFile(
      join(root, 'cli/main.ts'),
      [
        "import { GraphQLSchema, graphql } from 'graphql';",
        "import { createSchema } from 'graphql-yoga';",
        "import { createElement } from 'react';",
        "const schema = createSchema({ typeDefs: 'type Query { a: Int }', resolvers: { Query: { a: () => 7 } } });",
        "const result = await graphql({ schema, source: '{ a }' });",
        'console.log(JSON.stringify({ shared: schema instanceof GraphQLSchema, data: result.data, react: typeof createElement }));',
        '',
      ].join('\n'),
    );
    const dir = (await compiledCli(root, cache))!;
    expect(dir).not.toBeNull();
    expect(JSON.parse(execFileSync(process.execPath, [join(dir, 'main.js')], { encoding: 'utf8' }))).toEqual({
      shared: true,
      data: { a: 7 },
      react: 'function',
    });
    const compiled = (
      await Promise.all((await readdir(dir)).filter((name) => name.endsWith('.js')).map((name) => readFile(join(dir, name), 'utf8')))
    ).join('\n');
    expect(compiled).not.toMatch(/from ["']graphql-yoga["']|from ["']@graphql-tools\//);
    expect(compiled).toMatch(/from ["']graphql["']/);
    expect(compiled).toMatch(/from ["']react["']/);
  });
});
