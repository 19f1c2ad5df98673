import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { normalizePath } from '../../runtime/shared/paths.ts';
import { contentTypeFor } from './content-types.ts';
import { findNotFoundPage, findSiteFile, isFile } from './site-files.ts';
import { portInUse } from '../errors/errors.ts';
import { refusedHost } from './host-check.ts';
import { injectLiveReload, LIVE_RELOAD_PATH, LIVE_RELOAD_SCRIPT, LIVE_RELOAD_SCRIPT_PATH, type LiveReload } from './live-reload.ts';

/**
 * Files served in place of the build's, by site-relative file (`news/a/index.html`): the open pages
 * rendered first after an edit (open-page-renderer.ts), with their media, until the update in place is done.
 */
export type DevOverlay = ReadonlyMap<string, OverlayEntry>;

/** A page's file as text (`first`: which rendering of the page, for its live-reload client), or a medium's copy. */
export type OverlayEntry = { text: string; first?: string } | { file: string };

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
export async function startDevServer({
  root,
  port,
  host,
  liveReload,
  overlay = () => NO_OVERLAY,
}: {
  root: string;
  port: number;
  host: string;
  liveReload: LiveReload;
  overlay?: () => DevOverlay;
}): Promise<DevServer> {
  const base = resolve(root);
  const server = createServer((req, res) => {
    // Not even the event stream for another host (DNS rebinding): it says which pages are open.
    if (refusedHost(req, res, { name: 'site dev', host })) return;
    let pathname: string;
    try {
      pathname = new URL(req.url ?? '/', 'http://x').pathname;
    } catch {
      // A request line no URL can be made of (`GET http://[`) is the client's mistake, not the dev server's end.
      return void res.writeHead(400).end();
    }
    if (pathname === LIVE_RELOAD_PATH) return liveReload.connect(req, res);
    if (pathname === LIVE_RELOAD_SCRIPT_PATH)
      return void res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
        .end(LIVE_RELOAD_SCRIPT);
    void serve(base, req, res, overlay()).catch(() => {
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

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Building…</title></head><body><p>The first build has not finished yet; this page reloads when it has.</p></body></html>';

const NO_OVERLAY: DevOverlay = new Map();

async function serve(base: string, req: IncomingMessage, res: ServerResponse, overlay: DevOverlay): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const over = overlay.size > 0 ? overlaid(overlay, req.url ?? '/') : null;
  if (over && 'text' in over.entry) {
    const body = over.file.endsWith('.html') ? injectLiveReload(over.entry.text, over.entry.first) : over.entry.text;
    res
      .writeHead(200, {
        'content-type': contentTypeFor(over.file),
        'cache-control': 'no-store',
        'content-length': String(Buffer.byteLength(body)),
      })
      .end(req.method === 'HEAD' ? undefined : body);
    return;
  }
  // A medium's copy that is gone (the renderer let an old folder go, or restarted): the folder's file, if the build has it by now.
  if (over && 'file' in over.entry && (await isFile(over.entry.file))) return send(req, res, over.entry.file, 200);
  const file = await findSiteFile(base, req.url ?? '/');
  if (file) return send(req, res, file, 200);
  const notFound = await findNotFoundPage(base);
  if (notFound) return send(req, res, notFound, 404);
  res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(injectLiveReload(NOT_BUILT));
}

/** The overlay's entry for a URL: the file itself, else the folder's index.html. */
function overlaid(overlay: DevOverlay, requestUrl: string): { file: string; entry: OverlayEntry } | null {
  let pathname: string;
  try {
    // As the live-reload client's path is normalised: `/news//a/` is the page `/news/a`.
    pathname = normalizePath(decodeURIComponent(new URL(requestUrl, 'http://x').pathname));
  } catch {
    return null;
  }
  const rel = pathname.slice(1);
  for (const file of rel === '' ? ['index.html'] : [rel, `${rel}/index.html`]) {
    const entry = overlay.get(file);
    if (entry) return { file, entry };
  }
  return null;
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
