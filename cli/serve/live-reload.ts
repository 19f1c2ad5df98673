import type { IncomingMessage, ServerResponse } from 'node:http';
import { normalizePath } from '../../runtime/shared/paths.ts';

/** The Server-Sent Events endpoint the dev server answers; never part of a built site. */
export const LIVE_RELOAD_PATH = '/__dev/events';

/**
 * The live-reload client, served as a file of its own rather than inline, so pages keep their
 * Content-Security-Policy (`script-src 'self'`) in dev too. It says which page is open (the path the
 * dev server renders first after an edit), and connects again when the page moves on by client navigation.
 */
export const LIVE_RELOAD_SCRIPT_PATH = '/__dev/reload.js';
export const LIVE_RELOAD_SCRIPT = `(function(){var s,p;function open(){p=location.pathname;s=new EventSource(${JSON.stringify(LIVE_RELOAD_PATH)}+'?path='+encodeURIComponent(p));s.addEventListener('reload',function(){location.reload()});s.addEventListener('build-failed',function(e){console.warn('[site dev] the build failed; the page shows the previous build.\\n'+e.data)})}open();setInterval(function(){if(location.pathname!==p){s.close();open()}},200)})();`;

/** What the dev server tells open pages. */
export type LiveReloadEvent = { type: 'reload'; buildId: string } | { type: 'build-failed'; message: string };

/** The live-reload channel of `site dev`. */
export interface LiveReload {
  /** Answers a request for LIVE_RELOAD_PATH by keeping it open as an event stream. */
  connect(req: IncomingMessage, res: ServerResponse): void;
  /** Sends an event to every open page, or to those whose path `only` accepts; returns how many it reached. */
  send(event: LiveReloadEvent, only?: (path: string) => boolean): number;
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
  // Each open page's event stream, with the path it shows.
  const open = new Map<ServerResponse, string>();
  // A comment line now and then keeps idle connections from being closed by the browser or a proxy.
  const timer = setInterval(() => open.forEach((_path, res) => res.write(': keep-alive\n\n')), keepAliveMs);
  timer.unref();
  return {
    connect(req, res) {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive' });
      res.write('retry: 500\n\n');
      open.set(res, pathOf(req.url));
      req.on('close', () => open.delete(res));
    },
    send(event, only) {
      const data = event.type === 'reload' ? event.buildId : event.message;
      // Each line of an event's data needs its own `data:` prefix.
      const frame = `event: ${event.type}\n${data.split('\n').map((line) => `data: ${line}`).join('\n')}\n\n`;
      let sent = 0;
      for (const [res, path] of open) {
        if (only && !only(path)) continue;
        res.write(frame);
        sent++;
      }
      return sent;
    },
    clients: () => open.size,
    openPaths: () => [...new Set(open.values())],
    close() {
      clearInterval(timer);
      for (const res of open.keys()) res.end();
      open.clear();
    },
  };
}

/** The page path a live-reload client says it shows (`?path=`), normalised; `/` when it says none or nonsense. */
function pathOf(url: string | undefined): string {
  try {
    const path = new URL(url ?? '/', 'http://x').searchParams.get('path');
    return path && path.startsWith('/') && !path.includes('\0') ? normalizePath(path) : '/';
  } catch {
    return '/';
  }
}

/**
 * Adds the live-reload client to a page the dev server sends: a few lines that reload the page when a
 * build finishes and log a failed one to the console. Only the dev server adds it; built files never
 * contain it.
 */
export function injectLiveReload(html: string): string {
  const script = `<script src="${LIVE_RELOAD_SCRIPT_PATH}"></script>`;
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + script : html.slice(0, end) + script + html.slice(end);
}
