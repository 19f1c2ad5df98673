import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveMetrics } from '../../../../../cli/serve/live/live-metrics.ts';
import { isLoopbackAddress, startLiveServer, type FailedStage, type LiveServer } from '../../../../../cli/serve/live/live-server.ts';

let server: LiveServer | null = null;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await server?.close();
  server = null;
});

async function start({ host = '127.0.0.1', failing = null }: { host?: string; failing?: FailedStage | null } = {}): Promise<{
  host: string;
  port: number;
}> {
  server = await startLiveServer({
    host,
    port: 0,
    metrics: createLiveMetrics(Date.now(), { depth: 0, running: false }),
    health: () => ({ failing }),
    secret: 'a-secret-of-at-least-thirty-two-characters',
    onWebhook: () => undefined,
    onRefused: () => undefined,
  });
  const url = new URL(server.url);
  return { host: url.hostname, port: Number(url.port) };
}

/** A request to `target` (127.0.0.1):`port` with the Host header `host`: its status and body. */
function ask(port: number, path: string, host: string, method = 'GET', target = '127.0.0.1'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: target, port, path, method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe("site live's /health", () => {
  it('names the stage the last update failed in, not its message', async () => {
    const { port } = await start({ failing: 'backend' });
    const health = await ask(port, '/health', `127.0.0.1:${port}`);
    expect(health.status).toBe(503);
    const body = JSON.parse(health.body) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'failing', stage: 'backend' });
    expect(body).not.toHaveProperty('error');
  });
});

describe("site live's Host check", () => {
  it('on a loopback address, answers /health and /metrics only for a loopback name or that address', async () => {
    const { port } = await start();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost'])
      expect((await ask(port, '/health', host)).status, host).toBe(200);
    // A page elsewhere whose name now resolves to 127.0.0.1 (DNS rebinding) reads nothing.
    for (const path of ['/health', '/metrics']) {
      const refused = await ask(port, path, `rebind.attacker.example:${port}`);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toContain('site live answers requests for 127.0.0.1, localhost, [::1]');
    }
    // The webhook is not checked (a page cannot sign a call; a proxy on this machine forwards its own name): an unsigned call is refused as unsigned.
    expect((await ask(port, '/webhook', 'hooks.institute.example', 'POST')).status).toBe(401);
  });

  it('decides loopback by the address it is bound to, however --host spells it', async () => {
    for (const spelling of ['127.1', '127.0.0.2']) {
      const { host, port } = await start({ host: spelling });
      expect((await ask(port, '/health', `rebind.attacker.example:${port}`, 'GET', host)).status, spelling).toBe(403);
      await server!.close();
      server = null;
    }
    expect(['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1'].map(isLoopbackAddress)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '10.42.0.17', '::ffff:10.0.0.1', '128.0.0.1'].map(isLoopbackAddress)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it("on every interface (a pod), answers probes with the pod's address and a Service's or Ingress's name", async () => {
    const { port } = await start({ host: '0.0.0.0' });
    for (const host of [`10.42.0.17:${port}`, `site-live:${port}`, 'site-live.default.svc.cluster.local', 'www.institute.example'])
      expect((await ask(port, '/health', host)).status, host).toBe(200);
  });
});

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

  it('closes a kept-alive connection idle for a second, so that 64 of them cannot hold every place for long', async () => {
    const at = await start();
    const kept = open(at, `GET /health HTTP/1.1\r\nHost: 127.0.0.1:${at.port}\r\n\r\n`);
    await expect.poll(kept.data, { timeout: 3_000 }).toMatch(/^HTTP\/1\.1 200/);
    // Node's default keeps it five seconds.
    expect(await kept.closedAfter).toBeLessThan(3_500);
  }, 20_000);

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
