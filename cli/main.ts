import { Command, CommanderError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { redactUrlsIn } from '../runtime/shared/redact-url.ts';
import { addBuildCommand } from './commands/build.ts';
import { addCacheCommand } from './commands/cache.ts';
import { addContentCommand } from './commands/content.ts';
import { addDevCommand } from './commands/dev.ts';
import { addLiveCommand } from './commands/live.ts';
import { addPreviewCommand } from './commands/preview.ts';
import { addPublishCommand } from './commands/publish.ts';
import { everyOption, optionDescription, PRECEDENCE } from './commands/shared.ts';
import { BuildErrors, createBuildError, isBuildError } from './errors/errors.ts';
import { commandError, formatError } from './errors/format-error.ts';
import { terminalText } from './terminal/logger.ts';

/**
 * The `site` command: a thin shell over the programmatic API (one file per command in commands/).
 * Errors are caught here only, printed with their code and fix, and set the exit code (2 usage, 1 failure).
 */

// `site --help | head` closes the pipe before the text ends: that is no failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

const program = new Command()
  .name('site')
  .description('Builds the institute website from a GraphQL content backend, previews it, and serves the sample backend.')
  .version(packageJson.version, '-V, --version', 'print the version and exit')
  .configureHelp({ optionDescription })
  .configureOutput({
    // Usage errors read like every other error: a code, what is wrong, and what to do.
    outputError: (message, write) => write(terminalText(formatError(createBuildError(BuildErrors.UsageError, [message.trim()]))) + '\n'),
  })
  .exitOverride();

addBuildCommand(program);
addPreviewCommand(program);
addPublishCommand(program);
addDevCommand(program);
addLiveCommand(program);
addContentCommand(program);
addCacheCommand(program);
program.addHelpText('after', () => `${everyOption(program)}\n${PRECEDENCE}`);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    // Commander already printed the message (through outputError) or the help.
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else {
    const verbose = process.argv.includes('--verbose');
    const shown = commandError(error);
    // The error may quote the backend or the content: its control characters are shown, not sent.
    console.error(terminalText(formatError(shown, { verbose })));
    if (verbose && !isBuildError(error) && error instanceof Error && error.stack) console.error(terminalText(redactUrlsIn(error.stack)));
    process.exitCode = shown.exitCode;
  }
}
