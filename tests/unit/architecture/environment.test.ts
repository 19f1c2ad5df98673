import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';
import { envReads, envUses, filesUnder, type EnvRead, type EnvUse } from './source-scan.ts';

/** The code that runs as the product: what it reads of the environment is documented and read in one place. */
const PRODUCT = ['cli', 'runtime', 'site', 'backend', 'bin'];

/**
 * Code that may read its environment outside cli/config/, and why. bench/, scripts/ and tests/ are not
 * scanned: they are harnesses that set up the environment of the code under test (CHROMIUM_PATH and the like).
 */
const EXEMPT: Record<string, string> = {
  'bin/site.js': 'decides how the process itself starts (flags, malloc, compiled or from sources), before any TypeScript or config loads',
  'backend/': 'the embedded backend is a program of its own (site content serve, tests), with its own options, and never imports cli/',
};

const isExempt = (file: string): boolean =>
  Object.keys(EXEMPT).some((prefix) => file === prefix || (prefix.endsWith('/') && file.startsWith(prefix)));

/** The names `reads` use that the "Environment variables" section of docs/cli.md does not give in backquotes. */
function undocumented(reads: readonly EnvRead[], cliDoc: string): string[] {
  const section = /^## Environment variables\n([\s\S]*?)(?=^## )/m.exec(cliDoc)?.[1] ?? '';
  return [...new Set(reads.map((r) => r.name))].filter((name) => !section.includes(`\`${name}\``)).sort();
}

/** Reads of a named variable, and uses of `process.env` other than handing it whole to a child, outside cli/config/ and the exemptions. */
function readOutsideConfig(found: readonly (EnvRead | EnvUse)[]): string[] {
  return found.filter((f) => !f.file.startsWith('cli/config/') && !isExempt(f.file)).map((f) => `${f.file}:${f.line} ${f.name}`);
}

const product = filesUnder(ROOT, PRODUCT, /\.(?:ts|tsx|js|mjs|cjs)$/).map((file) => ({
  file,
  text: readFileSync(`${ROOT}/${file}`, 'utf8'),
}));
const reads = product.flatMap(({ file, text }) => envReads(file, text));
const uses = product.flatMap(({ file, text }) => envUses(file, text));
const cliDoc = readFileSync(`${ROOT}/docs/cli.md`, 'utf8');

describe('the environment', () => {
  it('is read by name only: every variable the code reads can be named', () => {
    expect(reads.length).toBeGreaterThan(40);
    expect(reads.filter((r) => r.name === '?').map((r) => `${r.file}:${r.line}`)).toEqual([]);
  });

  it('has every variable the code reads listed in docs/cli.md', () => {
    expect(undocumented(reads, cliDoc)).toEqual([]);
  });

  it('is read in cli/config/ only (bin/site.js and backend/ exempt)', () => {
    expect(readOutsideConfig([...reads, ...uses])).toEqual([]);
  });

  it('catches a read the docs miss or one outside cli/config/, whatever its form', () => {
    const source = [
      "const KEY = 'SITE_SECRET_KEY';",
      "const ENV_OF = { a: 'SITE_A', b: 'SITE_B' } as const;",
      "export function f(env: Record<string, string | undefined>, v: 'SITE_V1' | 'SITE_V2', key: keyof typeof ENV_OF) {",
      '  const { SITE_DESTRUCTURED } = process.env;',
      "  process.env.SDK_QUIET ??= 'true';", // a write for a library: not a read
      '  run(process.env);', // hands the environment somewhere this file does not say
      "  spawn('x', [], { env: process.env }); spawn('y', [], { env: { ...process.env, X: '1' } });", // forwarded whole to a child
      "  return [process.env.SITE_NEW, process.env['SITE_QUOTED'], env.SITE_PASSED, env[KEY], env[v], env[ENV_OF[key]], env.storage, env[String(v)]];",
      '}',
    ].join('\n');
    const fixtureReads = envReads('cli/render/example.ts', source);
    expect(fixtureReads.map((r) => r.name)).toEqual([
      'SITE_DESTRUCTURED',
      'SITE_NEW',
      'SITE_QUOTED',
      'SITE_PASSED',
      'SITE_SECRET_KEY',
      'SITE_V1',
      'SITE_V2',
      'SITE_A',
      'SITE_B',
      '?',
    ]);
    const fixtureUses = envUses('cli/render/example.ts', source);
    expect(fixtureUses.map((u) => u.line)).toEqual([6]);
    expect(undocumented(fixtureReads, '## Environment variables\n`SITE_NEW`, `SITE_A`\n## Next\n`SITE_PASSED`\n')).toEqual([
      '?',
      'SITE_B',
      'SITE_DESTRUCTURED',
      'SITE_PASSED',
      'SITE_QUOTED',
      'SITE_SECRET_KEY',
      'SITE_V1',
      'SITE_V2',
    ]);
    expect(readOutsideConfig([...fixtureReads, ...fixtureUses])).toHaveLength(11);
    expect(readOutsideConfig(envReads('cli/config/example.ts', source))).toEqual([]);
    expect(readOutsideConfig(envReads('backend/example.ts', source))).toEqual([]);
  });
});
