import { spawn } from 'node:child_process';

/**
 * The embedded backend with a synthetic site of about `scale` pages (null: the sample content), its
 * images camera photos with `photos`, in its own process (as a real CMS
 * would be), on a free port unless one is given.
 */
export function startScaledBackend(
  site: string,
  scale: number | null,
  options: { port?: number; env?: NodeJS.ProcessEnv; photos?: boolean } = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const args = [...(scale === null ? [] : ['--scale', String(scale)]), ...(options.photos ? ['--photos'] : [])];
    const child = spawn(process.execPath, [site, 'content', 'serve', '--port', String(options.port ?? 0), ...args], {
      env: { ...process.env, NODE_ENV: 'production', ...options.env },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+\/graphql)/.exec(out)?.[1];
      if (url)
        resolve({
          url,
          close: () =>
            new Promise<void>((ok) => (child.exitCode !== null ? ok() : (child.once('close', () => ok()), child.kill('SIGTERM')))),
        });
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`the content backend exited (${code}) before it listened:\n${out}`)));
  });
}
