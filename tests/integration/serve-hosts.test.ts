import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevServer } from '../../cli/serve/dev-server.ts';
import { isExpectedHost } from '../../cli/serve/host-check.ts';
import { createLiveReload, LIVE_RELOAD_PATH } from '../../cli/serve/live-reload.ts';
import { contentSecurityPolicy, cspMetaTag } from '../../cli/render/csp.ts';
import { startPreview } from '../helpers/cli.ts';

/**
 * `site preview` and `site dev` on this machine, as a page elsewhere would reach them: by a name of its
 * own made to resolve to 127.0.0.1 (DNS rebinding), which its scripts could then read as same-origin (a
 * `--drafts` preview included). Both answer only the loopback names, the host they listen on, and their
 * own port; preview forbids framing every page by header.
 */

/** A GET with the given Host header; status, headers and body. */
function get(
  url: string,
  host: string,
  path = '/',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      // The event stream never ends by itself: its status and headers are the answer.
      if (res.headers['content-type']?.startsWith('text/event-stream')) {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: '' });
        res.destroy();
      }
    });
    req.on('error', reject);
    req.end();
  });
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'serve-hosts-'));
  const policy = contentSecurityPolicy({ publicEndpoint: null, sentryDsn: null });
  await mkdir(join(dir, 'site', '_assets', 'builds'), { recursive: true });
  await writeFile(
    join(dir, 'site', 'index.html'),
    `<!doctype html><html><head><meta charset="utf-8">${cspMetaTag(policy)}<title>Home</title></head><body>Drafts here</body></html>`,
  );
  await writeFile(join(dir, 'site', '_assets', 'builds', 'latest.json'), '{"id":"b1"}');
  await mkdir(join(dir, 'plain', '_assets', 'builds'), { recursive: true });
  await writeFile(join(dir, 'plain', 'index.html'), '<!doctype html><title>No policy</title>');
  await writeFile(join(dir, 'plain', '_assets', 'builds', 'latest.json'), '{"id":"b2"}');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const port = (url: string): string => new URL(url).port;

describe('site preview', () => {
  it('answers the loopback names at its port, and refuses any other Host', async () => {
    const preview = await startPreview(join(dir, 'site'));
    try {
      const p = port(preview.url);
      for (const host of [`127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`, 'localhost'])
        expect((await get(preview.url, host)).status, host).toBe(200);
      for (const host of [
        `rebound.example:${p}`,
        'rebound.example',
        `localhost.rebound.example:${p}`,
        `127.0.0.1.nip.io:${p}`,
        `localhost:${Number(p) + 1}`,
      ]) {
        const answer = await get(preview.url, host);
        expect(answer.status, host).toBe(403);
        expect(answer.body, host).not.toContain('Drafts here');
      }
      expect((await get(preview.url, 'rebound.example')).body).toMatch(
        /^site preview answers requests for 127\.0\.0\.1, localhost, \[::1\] \(port \d+\)/,
      );
    } finally {
      preview.stop();
    }
  });

  it("forbids framing by header on every answer, with or without the site's policy", async () => {
    for (const site of ['site', 'plain']) {
      const preview = await startPreview(join(dir, site));
      try {
        for (const path of ['/', '/no-such-page']) {
          const policy = String((await get(preview.url, `127.0.0.1:${port(preview.url)}`, path)).headers['content-security-policy']);
          expect(policy, `${site}${path}`).toMatch(/(^|; )frame-ancestors 'none'$/);
          if (site === 'site') expect(policy).toContain("script-src 'self'");
        }
      } finally {
        preview.stop();
      }
    }
  });
});

describe('the hosts a local server answers', () => {
  it('are the loopback names, the host it listens on, and on every interface any IP address, each at its port', () => {
    expect(isExpectedHost('mybox.local:4173', 'mybox.local', 4173)).toBe(true);
    expect(isExpectedHost('MYBOX.local', 'mybox.local', 4173)).toBe(true);
    expect(isExpectedHost('other.local:4173', 'mybox.local', 4173)).toBe(false);
    expect(isExpectedHost('192.168.1.5:4173', '0.0.0.0', 4173)).toBe(true);
    expect(isExpectedHost('[fd00::5]:4173', '::', 4173)).toBe(true);
    expect(isExpectedHost('rebound.example:4173', '0.0.0.0', 4173)).toBe(false);
    expect(isExpectedHost('192.168.1.5:4173', '127.0.0.1', 4173)).toBe(false);
    expect(isExpectedHost('[::1]:4173', '::1', 4173)).toBe(true);
    expect(isExpectedHost(undefined, '127.0.0.1', 4173)).toBe(false);
    expect(isExpectedHost('user@localhost:4173', '127.0.0.1', 4173)).toBe(false);
  });
});

describe('site dev', () => {
  it('answers the loopback names at its port, and refuses any other Host, the event stream included', async () => {
    const server = await startDevServer({ root: join(dir, 'site'), port: 0, host: '127.0.0.1', liveReload: createLiveReload() });
    try {
      const p = port(server.url);
      for (const host of [`127.0.0.1:${p}`, `localhost:${p}`, `[::1]:${p}`]) expect((await get(server.url, host)).status, host).toBe(200);
      expect((await get(server.url, `localhost:${p}`, `${LIVE_RELOAD_PATH}?path=/`)).status).toBe(200);
      for (const path of ['/', `${LIVE_RELOAD_PATH}?path=/`]) {
        const answer = await get(server.url, `rebound.example:${p}`, path);
        expect(answer.status, path).toBe(403);
        expect(answer.body).not.toContain('Drafts here');
      }
    } finally {
      await server.close();
    }
  });
});
