import type { Command } from 'commander';
import { checkInteger, DEFAULTS } from '../config/config.ts';
import { waitForSignal } from './shared.ts';

/** `site preview`: serves a built site as object storage would. */
export function addPreviewCommand(program: Command): void {
  program
    .command('preview')
    .description('Serve a built site locally the way object storage would.')
    .option('--out <dir>', 'folder holding the built site', DEFAULTS.outDir)
    .option('--port <n>', 'port to listen on (0 for any free port)', '4173')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .action(async (flags: { out: string; port: string; host: string }) => {
      const { startPreview } = await import('../serve/preview.ts');
      const server = await startPreview({ out: flags.out, port: checkInteger('--port', flags.port, 0, 65535), host: flags.host });
      console.log(`Previewing ${server.root} at ${server.url}/ (Ctrl-C to stop)`);
      await waitForSignal();
      await server.close();
    });
}
