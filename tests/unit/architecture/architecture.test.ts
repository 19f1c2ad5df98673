import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importCycles, importGraph, importSpecifiers } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SOURCE_DIRS = ['cli', 'runtime', 'site', 'backend'];

describe('the code base', () => {
  const graph = importGraph(ROOT, SOURCE_DIRS);

  it('has no import cycles, type-only imports included', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one, type-only or dynamic', () => {
    const cyclic = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(importCycles(cyclic)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    const source = "import type { X } from './y.ts';\nexport { z } from './z.ts';\nconst m = await import('./w.ts');\n";
    expect(importSpecifiers(source)).toEqual(['./y.ts', './z.ts', './w.ts']);
  });

  it('never imports bin/ from cli/', () => {
    const intoBin = [...graph].flatMap(([file, deps]) =>
      file.startsWith('cli/') ? deps.filter((d) => d.startsWith('bin/')).map((d) => `${file} -> ${d}`) : [],
    );
    expect(intoBin).toEqual([]);
  });

  it('shows the pipeline in at most 16 entries at the top of cli/, each folder named in cli/README.md', () => {
    const entries = readdirSync(`${ROOT}/cli`, { withFileTypes: true });
    expect(entries.length).toBeLessThanOrEqual(16);
    const readme = readFileSync(`${ROOT}/cli/README.md`, 'utf8');
    for (const folder of entries.filter((e) => e.isDirectory()))
      expect(readme, folder.name).toMatch(new RegExp(`^- \`${folder.name}/\``, 'm'));
  });

  it('is described by docs/architecture.md, which names only files and folders that exist', () => {
    const doc = readFileSync(`${ROOT}/docs/architecture.md`, 'utf8');
    const named = [...doc.matchAll(/`((?:bin|cli|runtime|site|backend|templates|tests|bench)\/[\w./-]*)`/g)].map((m) =>
      m[1]!.replace(/\/$/, ''),
    );
    expect(named.length).toBeGreaterThan(50);
    expect(named.filter((path) => !existsSync(`${ROOT}/${path}`))).toEqual([]);
  });
});
