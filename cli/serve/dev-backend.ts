import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { BuildErrors, createBuildError } from '../errors/errors.ts';

/** The embedded backend as `site dev` runs it: a child process that can be restarted on the same port. */
export interface DevBackend {
  /** `http://127.0.0.1:PORT/graphql`, the same across restarts. */
  readonly url: string;
  /** Stops the backend and starts it again, so it loads backend/ and CONTENT_OVERRIDES_FILE afresh. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts `site content serve` in a child process. The backend reads its content modules and the
 * overrides file once, when it starts; a process of its own is the one way to load changed modules
 * again (Node caches ES modules for the life of a process).
 */
export async function startDevBackend(root: string, onLine: (line: string) => void): Promise<DevBackend> {
  let child: ChildProcess;
  let url: string;
  ({ child, url } = await spawnBackend(root, 0, onLine));
  const port = Number(new URL(url).port);
  return {
    get url() {
      return url;
    },
    async restart() {
      await stop(child);
      ({ child, url } = await spawnBackend(root, port, onLine));
    },
    close: () => stop(child),
  };
}

// --- internal ---

function spawnBackend(root: string, port: number, onLine: (line: string) => void): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin/site.js'), 'content', 'serve', '--port', String(port)], {
      cwd: root,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let ready = false;
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const url = /Content backend at (http:\/\/\S+\/graphql)/.exec(output)?.[1];
      if (url && !ready) {
        ready = true;
        resolve({ child, url });
      }
    };
    child.stdout!.on('data', read);
    // The backend's errors (a content module that does not load, a bad overrides file) are the developer's to see.
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      for (const line of chunk.toString().split('\n')) if (line.trim()) onLine(line);
    });
    child.once('error', (error) =>
      reject(createBuildError(BuildErrors.BackendFailed, ['could not be started', error.message], { cause: error })),
    );
    child.once('exit', (code) => {
      if (!ready) reject(createBuildError(BuildErrors.BackendFailed, [`exited with code ${code} before it listened`, lastLines(output)]));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    child.once('exit', () => ok());
    child.kill('SIGTERM');
  });
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' / ') || 'no output';
}
