import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.ts';
import { filesUnder, wholeConfigUses } from './source-scan.ts';

/**
 * Stages take what they need (docs/architecture.md, import rules): only the orchestrator and the commands
 * see the whole ResolvedConfig; a stage declares the fields it reads (`Pick<ResolvedConfig, …>` or its own
 * options type), so what reaches it, and what a change to the configuration touches, is in its signature.
 */
const ORCHESTRATORS = new Set([
  'cli/build/build.ts',
  'cli/main.ts',
  // `site live` runs build() again and again with the configuration it was given.
  'cli/serve/live/live.ts',
]);
const WHOLE_ALLOWED = (file: string): boolean =>
  file.startsWith('cli/config/') || file.startsWith('cli/commands/') || ORCHESTRATORS.has(file);

const found = (file: string, text: string): string[] =>
  WHOLE_ALLOWED(file) ? [] : wholeConfigUses(file, text).map((u) => `${u.file}:${u.line} ${u.name}`);

describe('the stages', () => {
  it('take only the configuration fields they read, not the whole ResolvedConfig', () => {
    const files = filesUnder(ROOT, ['cli'], /\.(?:ts|tsx)$/);
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((file) => found(file, readFileSync(`${ROOT}/${file}`, 'utf8')))).toEqual([]);
  });

  it('fail on a stage that takes ResolvedConfig whole, or all but a few fields of it', () => {
    const source = [
      "import type { ResolvedConfig } from '../config/config.ts';",
      'export function a(config: ResolvedConfig): void {}',
      "export function b(config: Pick<ResolvedConfig, 'outDir' | 'root'>, images: ResolvedConfig['images']): void {}",
      "export type C = Omit<ResolvedConfig, 'token'>;",
      'export const d = (config: Readonly<ResolvedConfig>) => config;',
    ].join('\n');
    expect(found('cli/serve/example.ts', source)).toEqual([
      'cli/serve/example.ts:2 ResolvedConfig',
      'cli/serve/example.ts:4 ResolvedConfig',
      'cli/serve/example.ts:5 ResolvedConfig',
    ]);
    expect(found('cli/build/build.ts', source)).toEqual([]);
    expect(found('cli/commands/example.ts', source)).toEqual([]);
  });
});
