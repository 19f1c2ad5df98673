import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve, sep } from 'node:path';
import { ASSETS_DIR } from '../../runtime/shared/contract.ts';
import { DERIVATIVE_PREFIX } from '../../runtime/shared/images.ts';
import { contentTypeFor } from './content-types.ts';
import { findNotFoundPage, findSiteFile } from './site-files.ts';
import { mediaDisposition } from '../content/media-types.ts';
import { recoverUnlessBuilding } from '../output/output.ts';
import { refusedHost } from './host-check.ts';

export interface StaticServerOptions {
  root: string;
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /**
   * Extra response headers for every answer, or per file answered (null: no file, the plain 404):
   * `site preview` sends each page's own Content-Security-Policy (preview.ts).
   */
  headers?: Record<string, string> | ((file: string | null) => Promise<Record<string, string>>);
  /**
   * Gzip text (HTML, JSON, JavaScript, CSS, XML, SVG) for clients that accept it, as production hosts
   * and CDNs do; false serves every file as it is on disk.
   * @default true
   */
  compress?: boolean;
}

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves a built site the way object storage with website hosting does behind a CDN: `index.html` for a
 * folder, `404.html` with status 404 for a miss, a Content-Type per file, long caching only for hashed
 * assets, and text gzipped for clients that accept it. Only for the hosts isExpectedHost allows (403 for
 * any other `Host`: DNS rebinding).
 */
export async function startStaticServer({
  root,
  port = 0,
  host = '127.0.0.1',
  headers = {},
  compress = true,
}: StaticServerOptions): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer((req, res) => {
    if (refusedHost(req, res, { name: 'site preview', host })) return;
    // nosniff on every answer: a browser takes each file for the type it is served as, never for HTML it guesses.
    const extra = async (file: string | null): Promise<Record<string, string>> => ({
      'x-content-type-options': 'nosniff',
      ...(typeof headers === 'function' ? await headers(file) : headers),
    });
    void handle(base, req, res, extra, compress).catch(() => {
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

/** Where the images' derivatives are (DERIVATIVE_PREFIX), as a path in the site's folder. */
const DERIVATIVES = DERIVATIVE_PREFIX.replaceAll('/', sep);

async function handle(
  base: string,
  req: IncomingMessage,
  res: ServerResponse,
  extra: (file: string | null) => Promise<Record<string, string>>,
  compress: boolean,
): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  let file = await findSiteFile(base, req.url ?? '/');
  // A build swaps its output in with two renames (cli/output/swap.ts): for that instant the folder is
  // missing. Wait for it (at most 2 s) rather than answer 404 for a site that is about to be there.
  for (let waited = 0; !file && waited < 2000 && !(await folderExists(base)); waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    file = await findSiteFile(base, req.url ?? '/');
  }
  // Still missing: a build was killed between the renames. Finish its swap, as `site preview` does
  // when it starts (unless a live build holds the folder), and serve the tree it puts back.
  if (!file && !(await folderExists(base)) && (await recoverUnlessBuilding(base).catch(() => null)))
    file = await findSiteFile(base, req.url ?? '/');
  if (file) return send(res, req, file, 200, await extra(file), compress);
  const notFound = await findNotFoundPage(base);
  if (notFound) return send(res, req, notFound, 404, await extra(notFound), compress);
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8', ...(await extra(null)) }).end('Not found');
}

async function send(
  res: ServerResponse,
  req: IncomingMessage,
  file: string,
  status: number,
  extra: Record<string, string>,
  compress: boolean,
): Promise<void> {
  const info = await stat(file);
  // As publish stores them: the assets and the images' derivatives, named by their content, for a year.
  const hashed = (file.includes(`${sep}${ASSETS_DIR}${sep}`) && !file.endsWith('latest.json')) || file.includes(DERIVATIVES);
  // As publish stores them: media a browser could open as a document of the site download instead.
  const disposition = file.includes(`${sep}media${sep}`) ? mediaDisposition(file) : null;
  const type = contentTypeFor(file);
  const compressible = compress && COMPRESSIBLE.test(type);
  const gzip = compressible && acceptsGzip(req.headers['accept-encoding']);
  res.writeHead(status, {
    'content-type': type,
    // A gzipped answer is streamed, so its length is not known up front.
    ...(gzip ? { 'content-encoding': 'gzip' } : { 'content-length': String(info.size) }),
    ...(compressible ? { vary: 'Accept-Encoding' } : {}),
    'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...(disposition ? { 'content-disposition': disposition } : {}),
    ...extra,
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // A client that goes away mid-answer is no error of the server's.
  if (gzip) pipeline(createReadStream(file), createGzip(), res, () => undefined);
  else createReadStream(file).pipe(res);
}

async function folderExists(dir: string): Promise<boolean> {
  return stat(dir).then(
    (info) => info.isDirectory(),
    () => false,
  );
}

/** Content types worth compressing: text, and SVG, which is text too. */
const COMPRESSIBLE = /^(?:text\/|application\/(?:javascript|json|xml|rss\+xml|manifest\+json)|image\/svg\+xml)/;

/** True when Accept-Encoding lists gzip (or `*`) without refusing it with `q=0`. */
function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  return value.split(',').some((part) => {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (name.trim() !== 'gzip' && name.trim() !== '*') return false;
    const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    return q === undefined || Number(q) > 0;
  });
}
