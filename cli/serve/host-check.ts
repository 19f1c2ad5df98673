import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { isLoopbackHost } from '../../runtime/shared/loopback.ts';

/**
 * Which `Host` a local server (`site preview`, `site dev`) answers. A page elsewhere on the web can make
 * its own name resolve to 127.0.0.1 (DNS rebinding): its scripts then read this server's answers as
 * same-origin, a `--drafts` preview included. Such a request carries the page's name in `Host`, so the
 * server answers only a loopback name or address (127.0.0.1, localhost, [::1]), the host it was told to
 * listen on, and, listening on every interface, any IP address (a name can be rebound, an address
 * cannot); each with no port or the server's own.
 */
export function isExpectedHost(hostHeader: string | undefined, listening: string, port: number): boolean {
  if (!hostHeader) return false;
  let url: URL;
  try {
    url = new URL(`http://${hostHeader}`);
  } catch {
    return false;
  }
  if (url.username || url.password || url.pathname !== '/' || (url.port !== '' && Number(url.port) !== port)) return false;
  const name = url.hostname;
  if (isLoopbackHost(name) || name === hostnameOf(listening)) return true;
  return WILDCARDS.has(listening) && isIP(name.replace(/^\[|\]$/g, '')) !== 0;
}

/**
 * Answers a request for an unexpected host with 403 and says why; true when it did (the caller stops).
 * `server` names the command in the answer and the host it listens on; its port is the one the request came to.
 */
export function refusedHost(req: IncomingMessage, res: ServerResponse, server: { name: string; host: string }): boolean {
  const port = req.socket.localPort ?? 0;
  if (isExpectedHost(req.headers.host, server.host, port)) return false;
  const allowed = [
    '127.0.0.1',
    'localhost',
    '[::1]',
    ...(isLoopbackHost(hostnameOf(server.host)) || WILDCARDS.has(server.host) ? [] : [hostnameOf(server.host)]),
  ];
  res
    .writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' })
    .end(
      `${server.name} answers requests for ${allowed.join(', ')}${WILDCARDS.has(server.host) ? ' or an IP address' : ''} (port ${port}), not for this Host: a page elsewhere may have pointed its own name at this machine. Open the site at one of those addresses.\n`,
    );
  return true;
}

// --- internal ---

/** Addresses that listen on every interface. */
const WILDCARDS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '[::]', '']);

/** The listening host as a URL's hostname spells it (IPv6 in brackets, lower case). */
function hostnameOf(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '');
  try {
    return new URL(`http://${isIP(bare) === 6 ? `[${bare}]` : bare}`).hostname;
  } catch {
    return host;
  }
}
