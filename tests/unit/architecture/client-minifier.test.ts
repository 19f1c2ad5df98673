import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { rollup, type OutputOptions } from 'rollup';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClientConfig } from '../../../rollup.config.ts';
import { ROOT } from '../../helpers/cli.ts';

/** What @swc/core throws when npm did not install its native package for this platform. */
vi.mock('@swc/core', () => {
  throw new Error('Failed to load native binding');
});

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(ROOT, 'node_modules/.cache/client-minifier-'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the client build's mangler", () => {
  it('without its native build, fails naming @swc/core, the platform and what to run', async () => {
    const entry = join(dir, 'entry.js');
    await writeFile(entry, 'globalThis.answer = (value) => value * 42;\n');
    const config = createClientConfig({ outDir: join(dir, 'out') });
    const bundle = await rollup({ ...config, input: { entry }, logLevel: 'silent' });
    try {
      await expect(bundle.generate(config.output as OutputOptions)).rejects.toThrow(
        new RegExp(
          `@swc/core, which mangles the client's entry and React's chunk, could not load its native build for ${process.platform}-${process.arch} \\(.+\\)\\. Run npm ci again`,
        ),
      );
    } finally {
      await bundle.close();
    }
  });

  it('is not loaded to build without minifying', async () => {
    const entry = join(dir, 'plain.js');
    await writeFile(entry, 'globalThis.answer = (value) => value * 42;\n');
    const config = createClientConfig({ outDir: join(dir, 'plain'), minify: false });
    const bundle = await rollup({ ...config, input: { entry }, logLevel: 'silent' });
    try {
      const { output } = await bundle.generate(config.output as OutputOptions);
      expect(output[0].code).toContain('value * 42');
    } finally {
      await bundle.close();
    }
  });
});
