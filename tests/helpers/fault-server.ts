import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startContentServer, type ContentServerOptions } from '../../backend/server.ts';

/**
 * A GraphQL endpoint that misbehaves on purpose: a real HTTP server on 127.0.0.1 in front of the
 * embedded content backend, forwarding every request (GraphQL and /media/…) except those a rule picks,
 * which get a fault instead. Rules match by operation name and by how often that operation was called,
 * so a test can make the first two calls of one query fail and the third succeed. Toxiproxy does the
 * same at the TCP level; this one also understands GraphQL answers, to corrupt or empty them.
 */

export type Fault =
  /** Accepts the request and never answers. */
  | { kind: 'hang' }
  /** Sends the headers and half a body, then nothing more. */
  | { kind: 'stall-body' }
  /** Drops the connection with a TCP reset, no answer at all. */
  | { kind: 'reset' }
  /** An HTTP error; with `retryAfter`, a Retry-After header (seconds or an HTTP date). */
  | { kind: 'status'; status: number; retryAfter?: string }
  /** 200 with a JSON content type and a body cut off half-way. */
  | { kind: 'malformed-json' }
  /** 200 with a proxy's HTML error page. */
  | { kind: 'html' }
  /** The backend's answer with its first field nulled and a GraphQL error added: partial data. */
  | { kind: 'graphql-errors'; message?: string }
  /** The backend's answer with every list (`nodes`) emptied and its totals zeroed. */
  | { kind: 'empty-lists' }
  /** The backend's answer, changed by `edit` (hostile content). */
  | { kind: 'edit'; edit: (data: Record<string, unknown>) => void };

export interface FaultRule {
  /** Operation name, a pattern, or '*' for every GraphQL operation. */
  operation: string | RegExp;
  fault: Fault;
  /** Which calls of a matching operation get the fault (1-based, counted per operation). @default every call */
  calls?: readonly number[] | ((call: number) => boolean);
}

export interface FaultLogEntry {
  operation: string;
  /** 1-based call number of this operation. */
  call: number;
  /** The fault's kind, or 'pass' when the request went through untouched. */
  fault: Fault['kind'] | 'pass';
  /** Milliseconds since the server started. */
  at: number;
}

export interface FaultServer {
  /** `http://127.0.0.1:PORT/graphql`. */
  url: string;
  /** Every GraphQL request, in arrival order. */
  log: FaultLogEntry[];
  /** Every other request (the media), with the Authorization it carried. */
  media: { path: string; authorization: string | null }[];
  /** Replaces the rules and restarts the per-operation call counts. */
  setRules(rules: readonly FaultRule[]): void;
  close(): Promise<void>;
}

/** Starts the content backend (`backend` options) behind a fault-injecting server on a free port, with no rules yet. */
export async function startFaultServer({ backend: backendOptions = {} }: { backend?: ContentServerOptions } = {}): Promise<FaultServer> {
  const backend = await startContentServer(backendOptions);
  const started = Date.now();
  const log: FaultLogEntry[] = [];
  const media: FaultServer['media'] = [];
  let current: readonly FaultRule[] = [];
  let counts = new Map<string, number>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (!req.url?.startsWith('/graphql')) {
        media.push({ path: req.url ?? '', authorization: req.headers.authorization ?? null });
        return void forward(backend.origin, req, body).then(
          (r) => send(res, r),
          () => res.destroy(),
        );
      }
      const operation = operationOf(body);
      const call = (counts.get(operation) ?? 0) + 1;
      counts.set(operation, call);
      const rule = current.find((r) => matches(r, operation, call));
      log.push({ operation, call, fault: rule?.fault.kind ?? 'pass', at: Date.now() - started });
      void inject(rule?.fault ?? null, backend.origin, req, res, body).catch(() => res.destroy());
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/graphql`,
    log,
    media,
    setRules(next) {
      current = [...next];
      counts = new Map();
    },
    close: async () => {
      await new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      });
      await backend.close();
    },
  };
}

// --- internal ---

/** Every list (`nodes`) in a GraphQL answer emptied, with its total and paging to match. */
function emptyLists(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(emptyLists);
  if (value === null || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.nodes)) {
    record.nodes = [];
    if (typeof record.totalCount === 'number') record.totalCount = 0;
    if (record.pageInfo && typeof record.pageInfo === 'object') Object.assign(record.pageInfo, { hasNextPage: false, endCursor: null });
  }
  Object.values(record).forEach(emptyLists);
}

interface Forwarded {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function matches(rule: FaultRule, operation: string, call: number): boolean {
  const named =
    rule.operation === '*' || (typeof rule.operation === 'string' ? rule.operation === operation : rule.operation.test(operation));
  if (!named) return false;
  if (rule.calls === undefined) return true;
  return typeof rule.calls === 'function' ? rule.calls(call) : rule.calls.includes(call);
}

async function inject(fault: Fault | null, origin: string, req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
  switch (fault?.kind) {
    case undefined:
      return send(res, await forward(origin, req, body));
    case 'hang':
      return; // closeAllConnections() ends it when the server stops
    case 'stall-body':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"data":{');
      return;
    case 'reset':
      req.socket.resetAndDestroy();
      return;
    case 'status':
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.retryAfter ? { 'retry-after': fault.retryAfter } : {}) });
      res.end(JSON.stringify({ errors: [{ message: `injected HTTP ${fault.status}` }] }));
      return;
    case 'malformed-json':
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"data":{"newsItems":{"nodes":[{"id":"news-1","ti');
      return;
    case 'html':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        '<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>The upstream server is not responding.</p></body></html>',
      );
      return;
    case 'graphql-errors':
    case 'empty-lists':
    case 'edit': {
      const answer = await forward(origin, req, body);
      const json = JSON.parse(answer.body.toString('utf8')) as { data?: Record<string, unknown> | null; errors?: unknown[] };
      if (fault.kind === 'empty-lists') emptyLists(json.data);
      else if (fault.kind === 'edit' && json.data) fault.edit(json.data);
      else if (fault.kind === 'graphql-errors' && json.data) {
        const first = Object.keys(json.data)[0] ?? 'data';
        json.data[first] = null;
        json.errors = [...(json.errors ?? []), { message: fault.message ?? `injected resolver failure in ${first}`, path: [first] }];
      }
      return send(res, { ...answer, body: Buffer.from(JSON.stringify(json)) });
    }
  }
}

async function forward(origin: string, req: IncomingMessage, body: Buffer): Promise<Forwarded> {
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'accept', 'authorization']) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const response = await fetch(origin + (req.url ?? '/'), {
    method: req.method,
    headers,
    body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body),
  });
  const out: Record<string, string> = {};
  for (const name of ['content-type', 'cache-control']) {
    const value = response.headers.get(name);
    if (value) out[name] = value;
  }
  return { status: response.status, headers: out, body: Buffer.from(await response.arrayBuffer()) };
}

function send(res: ServerResponse, answer: Forwarded): void {
  res.writeHead(answer.status, { ...answer.headers, 'content-length': String(answer.body.length) });
  res.end(answer.body);
}

function operationOf(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { operationName?: string | null; query?: string };
    return parsed.operationName ?? /\b(?:query|mutation)\s+([A-Za-z_]\w*)/.exec(parsed.query ?? '')?.[1] ?? 'anonymous';
  } catch {
    return 'unparsable';
  }
}
