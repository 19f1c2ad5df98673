import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cli.ts';

/** Builds the site once from the embedded backend, with the real CLI; tests serve the folder. */
export default async function globalSetup(): Promise<void> {
  const out = join(await mkdtemp(join(tmpdir(), 'site-e2e-')), 'site');
  const result = await runCli(['build', '--out', out, '--quiet']);
  if (result.code !== 0) throw new Error(`The e2e site build failed (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  process.env.E2E_SITE_DIR = out;
}
