import type { ServerResponse } from 'node:http';
import { startTestServer, type RecordedRequest } from './http-server.ts';

/** One item of a Sentry envelope: its header (`type` …) and its payload. */
export interface EnvelopeItem {
  header: { type?: string } & Record<string, unknown>;
  payload: Record<string, unknown>;
}

/** One envelope as it arrived: the raw text (for "no secret anywhere" checks), the request, and its parts. */
export interface Envelope {
  raw: string;
  request: RecordedRequest;
  header: Record<string, unknown>;
  items: EnvelopeItem[];
}

export interface SentryIngest {
  /** A DSN pointing at this server: `http://publickey@127.0.0.1:PORT/1`. */
  dsn: string;
  envelopes: Envelope[];
  /** Payloads of every item of this type received so far. */
  items(type: string): Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * A Sentry-compatible ingest endpoint on 127.0.0.1: records the envelopes POSTed to
 * `/api/{project}/envelope/` (newline-delimited JSON: envelope header, then item header and payload
 * pairs) and answers like Sentry does, with CORS headers so the browser's fetch succeeds.
 */
export async function startSentryIngest(): Promise<SentryIngest> {
  const envelopes: Envelope[] = [];
  const server = await startTestServer((req, res) => {
    if (req.method === 'OPTIONS') return answer(res, 204, '');
    if (req.method !== 'POST' || !/^\/api\/\d+\/envelope\/(\?|$)/.test(req.url)) return answer(res, 404, '{}');
    envelopes.push({ raw: req.body, request: req, ...parseEnvelope(req.body) });
    answer(res, 200, '{}');
  });
  return {
    dsn: `${server.url.replace('http://', 'http://publickey@')}/1`,
    envelopes,
    items: (type) => envelopes.flatMap((e) => e.items.filter((i) => i.header.type === type).map((i) => i.payload)),
    close: server.close,
  };
}

/** Splits an envelope into its header and items; a payload may itself be JSON on one line. */
export function parseEnvelope(body: string): { header: Record<string, unknown>; items: EnvelopeItem[] } {
  const lines = body.split('\n').filter((line) => line.length > 0);
  const header = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
  const items: EnvelopeItem[] = [];
  for (let i = 1; i + 1 < lines.length; i += 2) {
    items.push({ header: JSON.parse(lines[i]!) as EnvelopeItem['header'], payload: JSON.parse(lines[i + 1]!) as Record<string, unknown> });
  }
  return { header, items };
}

function answer(res: ServerResponse, status: number, body: string): void {
  res
    .writeHead(status, {
      'content-type': 'application/json',
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-allow-methods': 'POST, OPTIONS',
    })
    .end(body);
}
