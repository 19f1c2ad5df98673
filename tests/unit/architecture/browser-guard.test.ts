import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { rollup, type OutputOptions } from 'rollup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClientConfig, createClientPlugins } from '../../../rollup.config.ts';
import { ROOT } from '../../helpers/cli.ts';

/** The client build refuses every build-only module in the browser graph: the import itself is the error. */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'browser-guard-'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

async function bundleError(imports: string): Promise<string | null> {
  const entry = join(dir, `entry-${Math.random().toString(36).slice(2)}.ts`);
  await writeFile(entry, `${imports}\nexport const used = [x];\n`);
  try {
    const bundle = await rollup({ input: entry, plugins: createClientPlugins({ minify: false }), logLevel: 'silent' });
    await bundle.close();
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('the client build', () => {
  it.each([
    ['site/build/keep-top.ts', `import { keepTop as x } from '${ROOT}site/build/keep-top.ts';`],
    ['site/outputs.build.ts', `import { outputs as x } from '${ROOT}site/outputs.build.ts';`],
    ['cli/', `import { slugProblem as x } from '${ROOT}cli/content/slugs.ts';`],
    ['backend/', `import { isLoopbackHost as x } from '${ROOT}backend/guards.ts';`],
    ['node:fs', "import { readFileSync as x } from 'node:fs';"],
  ])('refuses %s', async (_name, imports) => {
    expect(await bundleError(imports)).toMatch(/which is build-only code and must not reach the browser/);
  });

  it('takes site code the browser needs', async () => {
    expect(await bundleError(`import { formatDay as x } from '${ROOT}site/format/dates.ts';`)).toBeNull();
  });
});

/** What bundling a probe module read and made: each module id with the code rollup parsed for it, and the chunks' code. */
interface Bundled {
  ids: string[];
  parsed: Map<string, string>;
  output: string;
}

/**
 * Bundles `code` as the module `entry` (a path inside a fresh folder under the project's node_modules/.cache,
 * where the project's packages resolve) with the client build's plugins: what it read and made, or the error.
 */
async function bundleInProject(prefix: string, entry: string, code: string): Promise<Bundled | { error: string }> {
  const folder = await mkdtemp(join(ROOT, `node_modules/.cache/${prefix}-`));
  const parsed = new Map<string, string>();
  const probe = {
    name: 'probe',
    moduleParsed: (info: { id: string; code: string | null }) => void parsed.set(info.id.replaceAll('\\', '/'), info.code ?? ''),
  };
  try {
    const file = join(folder, entry);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, code);
    const bundle = await rollup({ input: file, plugins: [...createClientPlugins({ minify: false }), probe], logLevel: 'silent' });
    try {
      const { output } = await bundle.generate({ format: 'es' });
      return {
        ids: bundle.watchFiles.map((id) => id.replaceAll('\\', '/')),
        parsed,
        output: output.map((o) => (o.type === 'chunk' ? o.code : '')).join('\n'),
      };
    } finally {
      await bundle.close();
    }
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('the Sentry packages the client build leaves out', () => {
  /** Bundles `imports` from a folder inside the project, where `@sentry/browser` resolves; the error, or null. */
  async function generateError(imports: string): Promise<string | null> {
    const result = await bundleInProject('sentry-guard', 'entry.ts', `${imports}\nexport const used = [x];\n`);
    return 'error' in result ? result.error : null;
  }

  it('bundles what the runtime uses of @sentry/browser', async () => {
    expect(await generateError("import { captureException as x } from '@sentry/browser';")).toBeNull();
  });

  it.each([
    ['replayIntegration', '@sentry/replay'],
    ['sendFeedback', '@sentry/feedback'],
    ['replayCanvasIntegration', '@sentry/replay-canvas'],
  ])('fails the build when the client uses %s, from a package left out', async (name, from) => {
    expect(await generateError(`import { ${name} as x } from '@sentry/browser';`)).toContain(
      `The client uses ${from} (through @sentry/browser)`,
    );
  });
});

describe('what the client build takes of graphql', () => {
  /** Bundles `code` as a module of a graphql-request inside the project (where graphql resolves): the module ids read, or the error. */
  const bundleAsGraphqlRequest = (code: string): Promise<Bundled | { error: string }> =>
    bundleInProject('graphql-subset', 'node_modules/graphql-request/probe.js', code);

  it("reads only the modules of what graphql-request imports, not graphql's index of the whole library", async () => {
    const result = await bundleAsGraphqlRequest(
      "import { Kind, parse, print } from 'graphql';\nexport const used = [Kind, parse, print];\n",
    );
    expect(result).toHaveProperty('ids');
    const ids = (result as { ids: string[] }).ids;
    expect(ids.some((id) => id.endsWith('/graphql/language/parser.mjs'))).toBe(true);
    expect(ids.some((id) => id.endsWith('/graphql/index.mjs'))).toBe(false);
    expect(ids.some((id) => id.includes('/graphql/validation/'))).toBe(false);
  });

  it('fails the build, naming the list to extend, when graphql-request imports something else', async () => {
    const result = await bundleAsGraphqlRequest("import { GraphQLError } from 'graphql';\nexport const used = [GraphQLError];\n");
    expect(result).toHaveProperty('error');
    expect((result as { error: string }).error).toMatch(/GraphQLError.*is not exported by.*GRAPHQL_SUBSET/s);
  });
});

describe('what the client build reads of @sentry/conventions', () => {
  /** Bundles `code` as a module of @sentry/core, where @sentry/conventions resolves as Sentry's own imports do. */
  const bundleAsSentryCore = (code: string): Promise<Bundled | { error: string }> =>
    bundleInProject('sentry-conventions', 'node_modules/@sentry/core/probe.js', code);

  it('reads its names as the strings they are, without the tables of metadata beside them, and bundles the same values', async () => {
    const attributes = (await import('@sentry/conventions/attributes')) as Record<string, unknown>;
    const op = (await import('@sentry/conventions/op')) as Record<string, unknown>;
    const result = await bundleAsSentryCore(
      "import { SENTRY_OP, USER_EMAIL } from '@sentry/conventions/attributes';\nimport { CACHE_GET } from '@sentry/conventions/op';\nexport const used = [SENTRY_OP, USER_EMAIL, CACHE_GET];\n",
    );
    expect(result).toHaveProperty('parsed');
    const { parsed, output } = result as Bundled;
    const attributesRead = [...parsed].find(([id]) => id.endsWith('/dist/attributes.mjs'))?.[1];
    const onDisk = await readFile(join(ROOT, 'node_modules/@sentry/conventions/dist/attributes.mjs'), 'utf8');
    expect(attributesRead, 'the attributes module is read').toBeDefined();
    // Every string the module exports, as it exports it, and nothing of its metadata tables.
    expect(attributesRead!.length).toBeLessThan(onDisk.length / 4);
    expect(attributesRead).not.toContain('ATTRIBUTE_METADATA');
    for (const [name, value] of [
      ['SENTRY_OP', attributes.SENTRY_OP],
      ['USER_EMAIL', attributes.USER_EMAIL],
      ['CACHE_GET', op.CACHE_GET],
    ] as const) {
      expect(typeof value, name).toBe('string');
      expect(output, name).toContain(JSON.stringify(value));
    }
  });

  it('fails the build when Sentry imports one of the tables the client build leaves out', async () => {
    const result = await bundleAsSentryCore(
      "import { ATTRIBUTE_METADATA } from '@sentry/conventions/attributes';\nexport const used = [ATTRIBUTE_METADATA];\n",
    );
    expect(result).toHaveProperty('error');
    expect((result as { error: string }).error).toMatch(/ATTRIBUTE_METADATA.*is not exported by/s);
  });
});

describe('the packages in the client bundle', () => {
  it("pins @sentry/core at @sentry/browser's version, so that npm installs the one the client uses once", async () => {
    // No code imports @sentry/core: it is a dependency only so that npm puts @sentry/browser's version at the
    // top of node_modules (see below). Bumped alone, the two would part and the bundle carry two cores.
    const { dependencies } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(dependencies['@sentry/core'], 'package.json: @sentry/core at the version of @sentry/browser').toBe(
      dependencies['@sentry/browser'],
    );
  });

  it('holds one copy of each package file: every package resolves to a single install', async () => {
    // A devDependency that needs another version of a package (lighthouse's @sentry/node and @sentry/core 9)
    // can push the client's version into nested copies, one per dependent, which the bundle then carries
    // twice: two Scope classes, two carriers, 3.5 kB more of Sentry.
    const config = createClientConfig({ outDir: join(dir, 'client'), minify: false });
    const bundle = await rollup({ ...config, logLevel: 'silent' });
    try {
      const { output } = await bundle.generate(config.output as OutputOptions);
      const files = output.flatMap((file) => (file.type === 'chunk' ? file.moduleIds : [])).map((id) => id.replaceAll('\\', '/'));
      const inPackage = files.filter((id) => id.includes('/node_modules/'));
      expect(inPackage.some((id) => id.includes('/@sentry/core/'))).toBe(true);
      const byPackagePath = new Map<string, string[]>();
      for (const id of inPackage) {
        const key = id.slice(id.lastIndexOf('/node_modules/') + '/node_modules/'.length);
        byPackagePath.set(key, [...(byPackagePath.get(key) ?? []), id]);
      }
      expect([...byPackagePath.values()].filter((ids) => new Set(ids).size > 1)).toEqual([]);
    } finally {
      await bundle.close();
    }
  });
});
