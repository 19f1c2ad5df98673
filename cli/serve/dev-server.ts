import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { contentTypeFor } from './content-types.ts';
import { findNotFoundPage, findSiteFile } from './site-files.ts';
import { portInUse } from '../errors/errors.ts';
import { injectLiveReload, LIVE_RELOAD_PATH, LIVE_RELOAD_SCRIPT, LIVE_RELOAD_SCRIPT_PATH, type LiveReload } from './live-reload.ts';

/** The running dev server. */
export interface DevServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves the dev build like `site preview` does (index.html for a folder, 404.html with status 404),
 * with two differences: nothing is cached, since every rebuild changes files in place, and HTML gets
 * the live-reload client, plus the event stream at LIVE_RELOAD_PATH. Before the first build has
 * finished there is a page that says so.
 */
export async function startDevServer({ root, port, host, liveReload }: { root: string; port: number; host: string; liveReload: LiveReload }): Promise<DevServer> {
  const base = resolve(root);
  const server = createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (pathname === LIVE_RELOAD_PATH) return liveReload.connect(req, res);
    if (pathname === LIVE_RELOAD_SCRIPT_PATH) return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(LIVE_RELOAD_SCRIPT);
    void serve(base, req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => ok());
  }).catch(portInUse(host, port));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((ok) => {
        liveReload.close();
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

// --- internal ---

const NOT_BUILT = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Building…</title></head><body><p>The first build has not finished yet; this page reloads when it has.</p></body></html>';

async function serve(base: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const file = await findSiteFile(base, req.url ?? '/');
  if (file) return send(req, res, file, 200);
  const notFound = await findNotFoundPage(base);
  if (notFound) return send(req, res, notFound, 404);
  res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(injectLiveReload(NOT_BUILT));
}

async function send(req: IncomingMessage, res: ServerResponse, file: string, status: number): Promise<void> {
  const headers = { 'content-type': contentTypeFor(file), 'cache-control': 'no-store' };
  if (file.endsWith('.html')) {
    const body = injectLiveReload(await readFile(file, 'utf8'));
    res.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) }).end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  res.writeHead(status, { ...headers, 'content-length': String((await stat(file)).size) });
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
}



