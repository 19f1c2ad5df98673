import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';

/**
 * The folders' TypeScript configs are the boundaries (docs/architecture.md, import rules): Node types
 * only for cli/ and backend/, the DOM only for runtime/, neither for runtime/shared/. Each probe is
 * type-checked with the compiler options of one folder's config, from a temporary folder so the
 * sources are never touched.
 */
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'type-boundaries-'));
});

afterAll(() => rm(dir, { recursive: true, force: true }));

async function errorsOf(folder: string, source: string): Promise<string[]> {
  const probe = join(dir, `${folder.replaceAll('/', '-')}-${Math.random().toString(36).slice(2)}.ts`);
  await writeFile(probe, source);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(ROOT, folder, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  )!;
  const program = ts.createProgram([probe, ...config.fileNames.filter((f) => f.endsWith('.d.ts'))], { ...config.options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(probe))
    .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
}

describe('the type check of each folder', () => {
  it("refuses Node's modules in runtime/, and the DOM in runtime/shared/", async () => {
    expect(await errorsOf('runtime', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toEqual([
      expect.stringMatching(/^TS2307: Cannot find module 'node:fs'/),
    ]);
    expect(await errorsOf('runtime/shared', 'export const title = document.title;\n')).toEqual([
      expect.stringMatching(/^TS(2304|2584): Cannot find name 'document'/),
    ]);
    expect(await errorsOf('runtime/shared', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toEqual([
      expect.stringMatching(/^TS2307: Cannot find module 'node:fs'/),
    ]);
    expect(await errorsOf('runtime/shared', 'export const p = process.env;\n')).toEqual([
      expect.stringMatching(/^TS(2580|2591): Cannot find name 'process'/),
    ]);
  });

  it('refuses the DOM in cli/ and backend/, and lets each use what it is for', async () => {
    expect(await errorsOf('cli', 'export const title = document.title;\n')).toEqual([
      expect.stringMatching(/^TS2584: Cannot find name 'document'/),
    ]);
    expect(await errorsOf('backend', 'export const w = window;\n')).toEqual([expect.stringMatching(/^TS2304: Cannot find name 'window'/)]);
    expect(await errorsOf('cli', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).toEqual([]);
    expect(await errorsOf('runtime', 'export const title = document.title;\n')).toEqual([]);
    // What Node and browsers both provide, shared code may use.
    expect(
      await errorsOf('runtime/shared', "export const u = new URL('/a', 'https://x.example').href;\nexport const f = fetch;\n"),
    ).toEqual([]);
  });
});
