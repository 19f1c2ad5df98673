import type { IncomingMessage, ServerResponse } from 'node:http';
import { normalizePath } from '../../runtime/shared/paths.ts';

/** The Server-Sent Events endpoint the dev server answers; never part of a built site. */
export const LIVE_RELOAD_PATH = '/__dev/events';

/**
 * The live-reload client, served as a file of its own rather than inline, so pages keep their
 * Content-Security-Policy (`script-src 'self'`) in dev too. It says which page is open (the path the
 * dev server renders first after an edit) and which rendering of it the page was loaded with (`first`,
 * see injectLiveReload), and connects again when the page moves on by client navigation.
 */
export const LIVE_RELOAD_SCRIPT_PATH = '/__dev/reload.js';
export const LIVE_RELOAD_SCRIPT = `(function(){var s,p,c=document.currentScript,f=c?new URL(c.src).searchParams.get('first')||'':'';function open(){p=location.pathname;s=new EventSource(${JSON.stringify(LIVE_RELOAD_PATH)}+'?path='+encodeURIComponent(p)+'&first='+encodeURIComponent(f));s.addEventListener('reload',function(){location.reload()});s.addEventListener('build-failed',function(e){console.warn('[site dev] the build failed; the page shows the previous build.\\n'+e.data)})}open();setInterval(function(){if(location.pathname!==p){s.close();open()}},200)})();`;

/** What the dev server tells open pages. */
export type LiveReloadEvent = { type: 'reload'; buildId: string } | { type: 'build-failed'; message: string };

/** An open page as its live-reload client describes it. */
export interface OpenClient {
  /** The path it shows, normalised. */
  path: string;
  /** The page rendered first it was loaded with ('' for the build's file): see injectLiveReload. */
  first: string;
}

/** Open pages listened to at most: more are refused (each is a path the dev server may render after an edit). */
const MAX_CLIENTS = 64;

/** The live-reload channel of `site dev`. */
export interface LiveReload {
  /** Answers a request for LIVE_RELOAD_PATH by keeping it open as an event stream. */
  connect(req: IncomingMessage, res: ServerResponse): void;
  /** Sends an event to every open page, or to those `only` accepts; returns how many it reached. */
  send(event: LiveReloadEvent, only?: (client: OpenClient) => boolean): number;
  /** Pages listening now. */
  clients(): number;
  /** The paths of the pages listening now (each once). */
  openPaths(): string[];
  close(): void;
}

/**
 * Creates the channel. Server-Sent Events need no library and no WebSocket upgrade; the browser's
 * EventSource reconnects by itself when the dev server restarts.
 */
export function createLiveReload({ keepAliveMs = 15_000 }: { keepAliveMs?: number } = {}): LiveReload {
  // Each open page's event stream, with the page it shows.
  const open = new Map<ServerResponse, OpenClient>();
  // A comment line now and then keeps idle connections from being closed by the browser or a proxy.
  const timer = setInterval(() => open.forEach((_path, res) => res.write(': keep-alive\n\n')), keepAliveMs);
  timer.unref();
  return {
    connect(req, res) {
      // A page of another site (a cross-origin EventSource) may not say what is open here.
      const refused =
        req.headers.origin !== undefined && req.headers.origin !== `http://${req.headers.host}`
          ? 403
          : open.size >= MAX_CLIENTS
            ? 503
            : null;
      if (refused) return void res.writeHead(refused, { 'cache-control': 'no-store' }).end();
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write('retry: 500\n\n');
      open.set(res, clientOf(req.url));
      req.on('close', () => open.delete(res));
    },
    send(event, only) {
      const data = event.type === 'reload' ? event.buildId : event.message;
      // Each line of an event's data needs its own `data:` prefix.
      const frame = `event: ${event.type}\n${data
        .split('\n')
        .map((line) => `data: ${line}`)
        .join('\n')}\n\n`;
      let sent = 0;
      for (const [res, client] of open) {
        if (only && !only(client)) continue;
        res.write(frame);
        sent++;
      }
      return sent;
    },
    clients: () => open.size,
    openPaths: () => [...new Set([...open.values()].map((client) => client.path))],
    close() {
      clearInterval(timer);
      for (const res of open.keys()) res.end();
      open.clear();
    },
  };
}

/** The page a live-reload client says it shows (`?path=`, normalised; `/` when it says none or nonsense), and its `?first=`. */
function clientOf(url: string | undefined): OpenClient {
  try {
    const params = new URL(url ?? '/', 'http://x').searchParams;
    const path = params.get('path');
    return {
      path: path && path.startsWith('/') && !path.includes('\0') ? normalizePath(path) : '/',
      first: (params.get('first') ?? '').slice(0, 64),
    };
  } catch {
    return { path: '/', first: '' };
  }
}

/**
 * Adds the live-reload client to a page the dev server sends: a few lines that reload the page when a
 * build finishes and log a failed one to the console. Only the dev server adds it; built files never
 * contain it. `first` names the page rendered first that is sent (first-pages.ts): after the build, a
 * page is not reloaded only when it was loaded with the rendering the build then wrote.
 */
export function injectLiveReload(html: string, first = ''): string {
  const script = `<script src="${LIVE_RELOAD_SCRIPT_PATH}${first ? `?first=${encodeURIComponent(first)}` : ''}"></script>`;
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + script : html.slice(0, end) + script + html.slice(end);
}
