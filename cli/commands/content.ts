import { Option, type Command } from 'commander';
import { checkInteger, checkUrl } from '../config/config.ts';
import { BuildErrors, createBuildError, isBuildError, portInUse } from '../errors/errors.ts';
import { describeCause } from '../errors/format-error.ts';
import { waitForSignal } from './shared.ts';

/** `site content serve`: the embedded sample backend on its own. */
export function addContentCommand(program: Command): void {
  const content = program.command('content').description('The embedded sample content backend.');
  content
    .command('serve')
    .description('Run the embedded GraphQL content backend with its sample content.')
    .option('--port <n>', 'port to listen on (0 for any free port)', '4000')
    .option(
      '--host <host>',
      'address to listen on; one other than loopback needs an editor account of your own or --allow-remote',
      '127.0.0.1',
    )
    .option(
      '--allow-remote',
      'listen on an address other machines can reach although the sample editor account is in force (default: refuse)',
    )
    .option(
      '--allow-origin <origin...>',
      "origins besides this machine's and the content's site URL whose pages may call the backend (default: none)",
    )
    .addOption(
      new Option('--scale <n>', 'serve a synthetic site of about N pages instead of the sample content; default: the sample content'),
    )
    .option(
      '--photos',
      "serve every image as a 4000×3000 camera photo with GPS tags, as editors upload them, instead of the sample's small SVGs (default: off)",
    )
    .action(
      async (flags: { port: string; host: string; allowRemote?: boolean; allowOrigin?: string[]; scale?: string; photos?: boolean }) => {
        const port = checkInteger('--port', flags.port, 0, 65535);
        const { startEmbeddedBackend } = await import('../content/embedded-backend.ts');
        const backend = await startEmbeddedBackend({
          port,
          host: flags.host,
          allowRemote: flags.allowRemote,
          allowOrigins: (flags.allowOrigin ?? []).map((origin) => new URL(checkUrl('--allow-origin', origin)).origin),
          scale: flags.scale === undefined ? undefined : checkInteger('--scale', flags.scale, 1, 1_000_000),
          photos: flags.photos,
        })
          .catch(portInUse(flags.host, port))
          .catch((cause: unknown) => {
            throw isBuildError(cause)
              ? cause
              : createBuildError(BuildErrors.BackendFailed, ['could not be started', describeCause(cause)], { cause });
          });
        console.log(`Content backend at ${backend.url} (Ctrl-C to stop)`);
        await waitForSignal();
        await backend.close();
      },
    );
}
