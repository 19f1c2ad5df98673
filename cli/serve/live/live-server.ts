import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { BlockList, isIPv4, type AddressInfo } from 'node:net';
import { refusedHost } from '../host-check.ts';
import { metricsText, type LiveMetrics } from './live-metrics.ts';
import { createSeenSignatures, malformedWebhookHeaders, SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyWebhook } from './webhook-signature.ts';

/**
 * `site live`'s HTTP face: `GET /health` (200 while updates succeed, 503 once the last one failed),
 * `GET /metrics` (Prometheus text) and `POST /webhook` (a CMS's signed call: a change to look for).
 * Nothing here serves the site.
 */

/**
 * Which stage the last update failed in, all /health says of a failure: its message (which may name the
 * backend, the bucket, a page or a path) goes to the log only. `backend`: the backend could not be asked
 * (unreachable, an error answer); `build`: a page, the content or the build failed; `publish`: the storage;
 * `lease`: another `site live` took the folder over.
 */
export type FailedStage = 'backend' | 'build' | 'publish' | 'lease';

/** The largest webhook body read: a CMS's notice of an edit is small; past this the call is refused unread. */
export const WEBHOOK_MAX_BYTES = 64 * 1024;

export interface LiveServerOptions {
  host: string;
  port: number;
  metrics: LiveMetrics;
  /** What /health says besides the metrics: the stage the last update failed in, or null. */
  health: () => { failing: FailedStage | null };
  /** The shared secret, or null: the webhook is off. */
  secret: string | null;
  /** A signed, recent, new webhook call arrived. */
  onWebhook: (atMs: number) => void;
  /** Told of each refused call: why, and from where. */
  onRefused: (reason: string, from: string) => void;
  now?: () => number;
}

export interface LiveServer {
  url: string;
  close(): Promise<void>;
}

export async function startLiveServer(options: LiveServerOptions): Promise<LiveServer> {
  const { metrics, now = Date.now } = options;
  // Decided from the address the server is bound to once it listens, however --host spelled it (127.1, ::ffff:127.0.0.1, localhost6).
  let loopback = true;
  const seen = createSeenSignatures();
  const send = (res: ServerResponse, status: number, body: string, type = 'application/json'): void => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    res.end(body);
  };
  const json = (res: ServerResponse, status: number, value: unknown): void => send(res, status, `${JSON.stringify(value)}\n`);
  const refuse = (req: IncomingMessage, res: ServerResponse, status: number, reason: string): void => {
    metrics.webhook.refused++;
    options.onRefused(reason, req.socket.remoteAddress ?? 'unknown');
    json(res, status, { error: reason });
  };

  const webhook = (req: IncomingMessage, res: ServerResponse): void => {
    if (options.secret === null) return json(res, 404, { error: 'the webhook is off: set SITE_LIVE_SECRET to turn it on' });
    // A call that cannot be signed is refused before its body is read: no memory held for it.
    const malformed = malformedWebhookHeaders(header(req, TIMESTAMP_HEADER), header(req, SIGNATURE_HEADER));
    if (malformed) return refuse(req, res, malformed.status, malformed.reason);
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > WEBHOOK_MAX_BYTES) return refuse(req, res, 413, `a body over ${WEBHOOK_MAX_BYTES} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > WEBHOOK_MAX_BYTES) {
        over = true;
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('error', () => undefined);
    req.on('end', () => {
      if (over) return;
      const at = now();
      const verdict = verifyWebhook({
        secret: options.secret!,
        timestamp: header(req, TIMESTAMP_HEADER),
        signature: header(req, SIGNATURE_HEADER),
        body: Buffer.concat(chunks),
        nowS: Math.floor(at / 1000),
        seen,
      });
      if (!verdict.ok) return refuse(req, res, verdict.status, verdict.reason);
      metrics.webhook.taken++;
      options.onWebhook(at);
      json(res, 202, { accepted: true, queueDepth: metrics.queueDepth });
    });
  };

  // Timeouts checked every second (Node's default: every 30 s, so a slow or silent client held its
  // connection three times the timeouts), and a bound on connections, so a flood cannot take the file
  // descriptors and memory the updates need.
  const server = createServer({ connectionsCheckingInterval: 1000 }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/webhook') {
      if (req.method !== 'POST') return json(res, 405, { error: 'POST a signed body (docs/live.md)' });
      return webhook(req, res);
    }
    // Listening on a loopback address, /health and /metrics answer only a loopback name or that address
    // (host-check.ts): a page elsewhere that points its own name at 127.0.0.1 (DNS rebinding) cannot read
    // them. Listening on another address (a pod's, 0.0.0.0), they answer any Host: probes send the pod's
    // address and an Ingress or a Service its own name, none of which this process knows. The webhook is
    // not checked: a page cannot sign a call, and a proxy in front of it forwards its own name.
    if (loopback && refusedHost(req, res, { name: 'site live', host: options.host })) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'GET /health or /metrics' });
    if (path === '/metrics') return send(res, 200, metricsText(metrics), 'text/plain; version=0.0.4; charset=utf-8');
    if (path === '/health') {
      const { failing } = options.health();
      return json(res, failing ? 503 : 200, {
        status: failing ? 'failing' : metrics.lastPublished ? 'ok' : 'starting',
        lastPublished: metrics.lastPublished && {
          buildId: metrics.lastPublished.buildId,
          at: new Date(metrics.lastPublished.atMs).toISOString(),
        },
        updating: metrics.updating,
        queueDepth: metrics.queueDepth,
        ...(failing ? { stage: failing } : {}),
      });
    }
    json(res, 404, { error: 'not found: GET /health, GET /metrics, POST /webhook' });
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  // An idle kept-alive connection holds one of the 64 places: after a second, not Node's five, so a
  // client sending a cheap request now and then on each cannot keep probes and webhook calls out.
  server.keepAliveTimeout = 1_000;
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  loopback = isLoopbackAddress(address.address);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Connections at once: probes, a scraper and a CMS's calls need a few; more are closed as they come. */
const MAX_CONNECTIONS = 64;

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? undefined : value;
}

/** Whether a bound address is a loopback one: 127.0.0.0/8, ::1, or an IPv4 loopback address mapped into IPv6. */
export function isLoopbackAddress(address: string): boolean {
  return isIPv4(address) ? LOOPBACK.check(address, 'ipv4') : LOOPBACK.check(address, 'ipv6');
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');
