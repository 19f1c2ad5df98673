import type { Command } from 'commander';
import { checkInteger, resolveConfig } from '../config/config.ts';
import { cacheClock } from '../config/environment.ts';
import { formatBytes, formatCount, plural } from '../terminal/format.ts';
import { oneLine, terminalText } from '../terminal/logger.ts';

/** `site cache`: what the build cache holds, and `site cache prune` to bound it (build/cache-prune.ts). */
export function addCacheCommand(program: Command): void {
  const cache = program
    .command('cache')
    .description('Show what the build cache holds: per kind, entries and bytes; each output folder with its last build.')
    .option('--cache-dir <dir>', 'build cache folder; default: .site-cache in the project')
    .action(async (flags: { cacheDir?: string }) => {
      const { describeCache } = await import('../build/cache-prune.ts');
      const cacheDir = resolveConfig({ cacheDir: flags.cacheDir }).cacheDir;
      const { states, kinds, other } = await describeCache(cacheDir);
      const stateBytes = states.reduce((sum, s) => sum + s.bytes, 0);
      const total = stateBytes + kinds.reduce((sum, k) => sum + k.bytes, 0) + other.bytes;
      const now = Date.now();
      const lines = [
        `Build cache ${cacheDir}: ${formatBytes(total)}`,
        '',
        row('states', states.length, stateBytes, "what each output folder's last build wrote, for an update in place"),
      ];
      for (const state of states) {
        // The folder's name comes from the cache, which anyone who can write it chooses: one line, defused.
        const folder =
          state.outDir === null
            ? '(no record of its folder: removed by the next prune)'
            : `${oneLine(state.outDir)}${state.hasState ? '' : ' (a shard: uses only)'}`;
        lines.push(
          `    ${new Date(state.builtAt).toISOString().slice(0, 16).replace('T', ' ')} UTC  ${ago(now - state.builtAt).padStart(8)}  ${formatBytes(state.bytes).padStart(10)}  ${folder}`,
        );
      }
      for (const kind of kinds) lines.push(row(kind.name, kind.count, kind.bytes, kind.holds));
      if (other.count > 0) lines.push(row('other', other.count, other.bytes, other.names.map(oneLine).join(', ')));
      console.log(terminalText(lines.join('\n')));
    });
  cache
    .command('prune')
    .description(
      'Remove the states of output folders beyond the bounds, and every cache entry no kept state uses (a build does this at its end with the defaults).',
    )
    .option('--cache-dir <dir>', 'build cache folder; default: .site-cache in the project')
    .option('--max-states <n>', 'output folders whose states are kept, most recently built first', '8')
    .option('--max-age <days>', "days since its last build after which a folder's state goes", '14')
    .option('--dry-run', 'say what would be removed, remove nothing')
    .action(async (flags: { cacheDir?: string; maxStates: string; maxAge: string; dryRun?: boolean }, command: Command) => {
      const { pruneCache } = await import('../build/cache-prune.ts');
      // `--cache-dir` after `prune` is taken by `site cache`, which has it too.
      const cacheDir = resolveConfig({
        cacheDir: flags.cacheDir ?? (command.optsWithGlobals() as { cacheDir?: string }).cacheDir,
      }).cacheDir;
      const maxStates = checkInteger('--max-states', flags.maxStates, 0, 1_000_000);
      const maxAgeDays = checkInteger('--max-age', flags.maxAge, 0, 100_000);
      const result = await pruneCache(cacheDir, { maxStates, maxAgeDays, dryRun: flags.dryRun, now: cacheClock() });
      const verb = flags.dryRun ? 'Would remove' : 'Removed';
      const stateBytes = result.removed.reduce((sum, s) => sum + s.bytes, 0);
      const lines = [`${verb} from ${cacheDir}:`, row('states', result.removed.length, stateBytes, '')];
      for (const state of result.removed) lines.push(`    ${state.outDir === null ? '(no record of its folder)' : oneLine(state.outDir)}`);
      for (const [kind, gone] of Object.entries(result.entries)) lines.push(row(kind, gone.count, gone.bytes, ''));
      lines.push(
        `Kept ${plural(result.kept.length, 'state')}${result.kept.length > 0 ? ':' : '.'}`,
        ...result.kept.map((s) => `    ${s.outDir === null ? '(a save under way)' : oneLine(s.outDir)}`),
      );
      console.log(terminalText(lines.join('\n')));
    });
}

function row(name: string, count: number, bytes: number, note: string): string {
  return `  ${name.padEnd(10)} ${formatCount(count).padStart(7)}  ${formatBytes(bytes).padStart(10)}${note ? `  ${note}` : ''}`.trimEnd();
}

/** How long ago, in the largest whole unit. */
function ago(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours} h` : `${Math.floor(hours / 24)} days`;
}
