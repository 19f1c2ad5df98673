import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT, SITE_BIN } from './cli.ts';

/** A running `site dev`, with everything it printed so far. */
export interface Dev {
  url: string;
  output: () => string;
  waitFor: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpExecArray>;
  stop: () => Promise<void>;
}

/**
 * Starts the real `site dev` on a free port with `args` (its output folder, an endpoint…) and `env` added
 * to a production environment; resolves once it serves.
 */
export async function startDev(args: readonly string[], env: Record<string, string> = {}): Promise<Dev> {
  const child: ChildProcess = spawn(process.execPath, [SITE_BIN, 'dev', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', CI: 'true', ...env },
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer): void => {
    output += d.toString();
    listeners.forEach((f) => f());
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const waitFor = (pattern: RegExp, timeoutMs = 90_000): Promise<RegExpExecArray> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const match = pattern.exec(output);
        if (!match) return;
        listeners.delete(check);
        clearTimeout(timer);
        resolve(match);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`site dev did not print ${pattern} within ${timeoutMs} ms; it printed:\n${output}`));
      }, timeoutMs);
      listeners.add(check);
      check();
    });
  const stop = (): Promise<void> =>
    new Promise((ok) => {
      if (child.exitCode !== null) return ok();
      child.once('exit', () => ok());
      child.kill('SIGTERM');
    });
  try {
    const [, url] = await waitFor(/\[dev\] serving (http:\/\/127\.0\.0\.1:\d+)\//);
    return { url: url!, output: () => output, waitFor, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
