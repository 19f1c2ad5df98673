import { build, type BuildResult } from '../../cli/build/build.ts';
import { resolveConfig, type UserConfig } from '../../cli/config/config.ts';
import { createMemoryLogger } from '../../cli/terminal/logger.ts';
import { ROOT } from './cli.ts';

/**
 * Runs the build in this process, as `site build` would from the project root, silently and without a
 * report. Kept apart from cli.ts so the many users of runCli do not load the whole build.
 */
export function buildInProcess(user: UserConfig, env: Record<string, string | undefined> = {}): Promise<BuildResult> {
  const config = resolveConfig({ logLevel: 'silent', report: false, ...user }, env, ROOT);
  return build(config, { logger: createMemoryLogger() });
}
