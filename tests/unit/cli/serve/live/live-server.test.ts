import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveMetrics } from '../../../../../cli/serve/live/live-metrics.ts';
import { startLiveServer, type LiveServer } from '../../../../../cli/serve/live/live-server.ts';

let server: LiveServer | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = null;
});

async function start(): Promise<{ host: string; port: number }> {
  server = await startLiveServer({
    host: '127.0.0.1',
    port: 0,
    metrics: createLiveMetrics(Date.now(), { depth: 0, running: false }),
    health: () => ({ failing: null }),
    secret: 'a-secret-of-at-least-thirty-two-characters',
    onWebhook: () => undefined,
    onRefused: () => undefined,
  });
  const url = new URL(server.url);
  return { host: url.hostname, port: Number(url.port) };
}

/** A connection, and when the server closed it (ms after it opened; null while open). */
function open(at: { host: string; port: number }, send = ''): { socket: Socket; closedAfter: Promise<number>; data: () => string } {
  const socket = connect(at.port, at.host);
  sockets.push(socket);
  const opened = Date.now();
  let data = '';
  socket.on('data', (chunk: Buffer) => (data += chunk.toString()));
  socket.on('error', () => undefined);
  if (send) socket.write(send);
  return { socket, closedAfter: new Promise((resolve) => socket.once('close', () => resolve(Date.now() - opened))), data: () => data };
}

describe("site live's server, against a flood", () => {
  it('refuses an unsigned webhook call before reading its body', async () => {
    const at = await start();
    // Headers of a 60 KiB body, of which only a few bytes ever come: the answer does not wait for the rest.
    const call = open(at, `POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: 61440\r\n\r\n{"a":`);
    await expect.poll(call.data, { timeout: 3_000 }).toMatch(/^HTTP\/1\.1 401/);
    expect(call.data()).toContain('x-site-timestamp');
  });

  it('closes a connection that sends nothing within seconds, not half a minute', async () => {
    const at = await start();
    const silent = open(at);
    expect(await silent.closedAfter).toBeLessThan(8_000);
  }, 40_000);

  it('takes at most 64 connections at once, closing the others as they come', async () => {
    const at = await start();
    const many = Array.from({ length: 70 }, () => open(at));
    const closed = await Promise.all(many.map((c) => Promise.race([c.closedAfter.then(() => true), sleep(1_500).then(() => false)])));
    expect(closed.filter(Boolean).length).toBeGreaterThanOrEqual(6);
  }, 20_000);
});

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
