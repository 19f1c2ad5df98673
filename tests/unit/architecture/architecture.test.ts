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

  it('keeps build/ above the stages: content/, bundle/ and output/ never import it, render/ only its incremental/ state', () => {
    expect(importsAgainstBuildOrder(graph)).toEqual([]);
  });

  it('finds a stage importing the orchestrator, and build/incremental/ importing what sits above it', () => {
    const graph = new Map([
      ['cli/output/extras.ts', ['cli/build/build-state.ts', 'cli/output/write.ts']],
      ['cli/content/page-stream.ts', ['cli/build/incremental/build-state.ts']],
      ['cli/render/render-pages.ts', ['cli/build/incremental/page-records.ts', 'cli/build/build.ts']],
      ['cli/build/incremental/kept-pages.ts', ['cli/build/shard.ts', 'cli/render/html.ts', 'cli/output/read.ts']],
      ['cli/build/build.ts', ['cli/render/render-pages.ts', 'cli/build/incremental/feed-plan.ts']],
    ]);
    expect(importsAgainstBuildOrder(graph)).toEqual([
      'cli/output/extras.ts -> cli/build/build-state.ts',
      'cli/content/page-stream.ts -> cli/build/incremental/build-state.ts',
      'cli/render/render-pages.ts -> cli/build/build.ts',
      'cli/build/incremental/kept-pages.ts -> cli/build/shard.ts',
      'cli/build/incremental/kept-pages.ts -> cli/render/html.ts',
    ]);
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

/**
 * The imports that go against the build's order, `importer -> imported`. build/ runs the stages, so a
 * stage (content/, bundle/, output/) never imports from build/; render/ may import build/incremental/
 * only (the previous build's state, whose unchanged pages it keeps, and the records the next one
 * keeps), and build/incremental/ imports neither build/'s own files nor render/.
 */
function importsAgainstBuildOrder(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const against = (file: string, dep: string): boolean => {
    if (/^cli\/(content|bundle|output)\//.test(file)) return dep.startsWith('cli/build/');
    if (file.startsWith('cli/render/')) return dep.startsWith('cli/build/') && !dep.startsWith('cli/build/incremental/');
    if (file.startsWith('cli/build/incremental/'))
      return dep.startsWith('cli/render/') || (dep.startsWith('cli/build/') && !dep.startsWith('cli/build/incremental/'));
    return false;
  };
  return [...graph].flatMap(([file, deps]) => deps.filter((dep) => against(file, dep)).map((dep) => `${file} -> ${dep}`));
}
