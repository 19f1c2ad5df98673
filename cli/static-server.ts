import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve, sep } from 'node:path';
import { ASSETS_DIR } from '../runtime/shared/contract.ts';
import { contentTypeFor } from './content-types.ts';
import { findNotFoundPage, findSiteFile } from './site-files.ts';

export interface StaticServerOptions {
  root: string;
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Extra response headers for every answer (tests use it for Content-Security-Policy). */
  headers?: Record<string, string>;
}

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a built site the way object storage with website hosting does: `index.html` for a folder,
 * `404.html` with status 404 for a miss, a Content-Type per file, long caching only for hashed assets.
 */
export async function startStaticServer({ root, port = 0, host = '127.0.0.1', headers = {} }: StaticServerOptions): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer((req, res) => {
    void handle(base, req, res, headers).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

// --- internal ---

async function handle(base: string, req: IncomingMessage, res: ServerResponse, extra: Record<string, string>): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const file = await findSiteFile(base, req.url ?? '/');
  if (file) return send(res, req, file, 200, extra);
  const notFound = await findNotFoundPage(base);
  if (notFound) return send(res, req, notFound, 404, extra);
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...extra }).end('Not found');
}


async function send(res: ServerResponse, req: IncomingMessage, file: string, status: number, extra: Record<string, string>): Promise<void> {
  const info = await stat(file);
  const hashed = file.includes(`${sep}${ASSETS_DIR}${sep}`) && !file.endsWith('latest.json');
  res.writeHead(status, {
    'content-type': contentTypeFor(file),
    'content-length': String(info.size),
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...extra,
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  createReadStream(file).pipe(res);
}


