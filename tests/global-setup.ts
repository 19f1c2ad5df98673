import { useRunTempDir } from './helpers/run-temp-dir.ts';

/** Vitest's global set-up: one temporary folder for the run, removed at its end. */
export default async function setup(): Promise<() => Promise<void>> {
  return useRunTempDir('site-vitest-');
}
