import type { Command } from 'commander';
import { Help, type Option } from 'commander';
import type { LogLevel } from '../terminal/logger.ts';

/** Flags every command has. */
export interface CommonFlags {
  quiet?: boolean;
  verbose?: boolean;
}

export function logLevelOf(flags: CommonFlags): LogLevel {
  return flags.quiet ? 'warn' : flags.verbose ? 'debug' : 'info';
}

/** Commander's values minus those it filled from an option's default, so site.config.ts and the environment can set them. */
export function explicitFlags<T extends object>(flags: T, command: Command): Partial<T> {
  return Object.fromEntries(Object.entries(flags).filter(([key]) => command.getOptionValueSource(key) !== 'default')) as Partial<T>;
}

/** Every option's help names its default: a switch without one is off unless given. */
export function optionDescription(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  const isSwitch = !option.required && !option.optional && !option.negate && option.long !== '--help' && option.long !== '--version';
  return isSwitch && option.defaultValue === undefined && !/default/i.test(text) ? `${text} (default: off)` : text;
}

export const PRECEDENCE =
  '\nFlags override the environment variables named above, which override `build` in site/site.config.ts, which overrides the defaults shown.';
/** The end of `site --help`: every option of every command, each with its default, as in the command's own help. */
export function everyOption(root: Command): string {
  const helper = root.createHelp();
  helper.helpWidth = process.stdout.columns || 100;
  const out: string[] = [];
  const visit = (command: Command, path: string): void => {
    // A hidden command (site dev-pages, which site dev starts) is not for people to run.
    for (const sub of helper.visibleCommands(command)) {
      if (sub.name() === 'help') continue;
      const name = `${path} ${sub.name()}`;
      const options = helper.visibleOptions(sub).filter((o) => o.long !== '--help');
      if (options.length > 0) {
        const width = Math.max(...options.map((o) => helper.optionTerm(o).length));
        out.push(
          '',
          `Options of ${name}:`,
          ...options.map((o) => helper.formatItem(helper.optionTerm(o), width, helper.optionDescription(o), helper)),
        );
      }
      visit(sub, name);
    }
  };
  visit(root, root.name());
  return out.join('\n');
}

export function waitForSignal(): Promise<void> {
  return new Promise((ok) => {
    process.once('SIGINT', () => ok());
    process.once('SIGTERM', () => ok());
  });
}
