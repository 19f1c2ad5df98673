import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMediaCopier } from '../../cli/content/media.ts';
import { sanitizeSvg } from '../../cli/content/media-svg.ts';
import { policyFor } from '../../cli/publish/policy.ts';
import { startStaticServer } from '../../cli/serve/static-server.ts';
import { runCli } from '../helpers/cli.ts';
import { startTestServer, type RecordedRequest, type TestServer } from '../helpers/http-server.ts';
import { snapshotTree } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * Media re-hosted on the site's origin is never executable, and media downloads are as careful as
 * GraphQL requests (issue 16.2 and 16.3). A real HTTP server on 127.0.0.1 plays the backend.
 */

const HOSTILE_SVG = [
  '<?xml version="1.0"?>',
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" onload="alert(1)">',
  '<script>alert(2)</script>',
  '<title>Logo</title>',
  '<rect width="10" height="10" fill="url(#g)" onclick="alert(3)"/>',
  '<rect width="5" height="5" fill="url(http://127.0.0.1:9/track.svg#x)"/>',
  '<a xlink:href="javascript:alert(4)"><circle r="4"/></a>',
  '<use href="http://127.0.0.1:9/sprite.svg#icon"/>',
  '<image href="http://127.0.0.1:9/x.png" width="1" height="1"/>',
  '<foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml"><iframe src="javascript:alert(5)"></iframe></div></foreignObject>',
  '<style>@import url(http://127.0.0.1:9/x.css);</style>',
  '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>',
  '</svg>',
].join('');

type Handler = (req: RecordedRequest, res: ServerResponse) => void;
let backend: TestServer;
let elsewhere: TestServer;
const routes = new Map<string, Handler>();

beforeAll(async () => {
  elsewhere = await startTestServer((_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end('png'));
  backend = await startTestServer((req, res) => {
    const handler = routes.get(req.url);
    if (handler) handler(req, res);
    else res.writeHead(404).end();
  });
});

afterAll(async () => {
  await backend?.close();
  await elsewhere?.close();
});

async function copy(urls: string[], options: { maxBytes?: number; retries?: number; retryDelayMs?: number } = {}) {
  const siteDir = await mkdtemp(join(tmpdir(), 'media-safety-'));
  const copier = createMediaCopier({
    origin: backend.url,
    siteDir,
    concurrency: 4,
    retries: options.retries ?? 3,
    retryDelayMs: options.retryDelayMs ?? 10,
    maxBytes: options.maxBytes,
    timeoutMs: 10_000,
  });
  copier.addFrom(JSON.stringify(urls), '/news/a-page');
  const failures = await copier.done();
  const files = await readdir(join(siteDir, 'media')).catch(() => [] as string[]);
  return { siteDir, failures, files };
}

function requestsFor(path: string): number {
  return backend.requests.filter((r) => r.url === path).length;
}

describe('what the build re-hosts', () => {
  it('cleans an SVG of scripts, handlers, foreignObject, external references and javascript: URLs', async () => {
    routes.set('/media/logo.svg', (_req, res) => void res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(HOSTILE_SVG));
    const { siteDir, failures } = await copy(['/media/logo.svg']);
    expect(failures).toEqual([]);
    const svg = await readFile(join(siteDir, 'media/logo.svg'), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).not.toMatch(/script|onload|onclick|foreignObject|javascript:|iframe|<style|<image|127\.0\.0\.1:9|<a\b/i);
    expect(svg).toContain('fill="url(#g)"');
    expect(svg).toContain('<title>Logo</title>');
  });

  it('refuses an SVG that declares entities, naming the page and the file', async () => {
    routes.set(
      '/media/bomb.svg',
      (_req, res) =>
        void res
          .writeHead(200, { 'content-type': 'image/svg+xml' })
          .end('<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'),
    );
    const { failures, files } = await copy(['/media/bomb.svg']);
    expect(failures).toEqual([
      expect.objectContaining({ page: '/news/a-page', cause: expect.stringMatching(/\/media\/bomb\.svg: .*DOCTYPE/) }),
    ]);
    expect(files).toEqual([]);
  });

  it.each([
    '/media/page.html',
    '/media/app.js',
    '/media/style.css',
    '/media/feed.xml',
    '/media/page.xhtml',
    '/media/file.unknown',
    '/media/noextension',
  ])('never writes %s under media/, and never asks the backend for it', async (url) => {
    routes.set(url, (_req, res) => void res.writeHead(200, { 'content-type': 'image/png' }).end('x'));
    const { failures, files } = await copy([url]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ page: '/news/a-page', route: 'media' });
    expect(failures[0]!.cause).toContain(url);
    expect(failures[0]!.fix).toMatch(/allowed format/);
    expect(files).toEqual([]);
    expect(requestsFor(url)).toBe(0);
  });

  it('refuses a file whose Content-Type does not agree with its extension', async () => {
    routes.set(
      '/media/photo.png',
      (_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<script>alert(1)</script>'),
    );
    const { failures, files } = await copy(['/media/photo.png']);
    expect(failures).toEqual([
      expect.objectContaining({ cause: expect.stringContaining('Content-Type text/html, which does not agree with .png') }),
    ]);
    expect(files).toEqual([]);
  });

  it('publishes SVG and text as attachments, images and PDF inline, and the preview server sends nosniff', async () => {
    expect(policyFor('media/logo.svg').contentDisposition).toBe('attachment');
    expect(policyFor('media/notes.txt').contentDisposition).toBe('attachment');
    expect(policyFor('media/photo.png').contentDisposition).toBeUndefined();
    expect(policyFor('media/report.pdf').contentDisposition).toBeUndefined();
    const root = await mkdtemp(join(tmpdir(), 'media-preview-'));
    await import('node:fs/promises').then(({ mkdir }) => mkdir(join(root, 'media'), { recursive: true }));
    await writeFile(join(root, 'media/logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    await writeFile(join(root, 'index.html'), '<!doctype html><title>x</title>');
    const preview = await startStaticServer({ root });
    try {
      const svg = await fetch(`${preview.url}/media/logo.svg`);
      expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
      expect(svg.headers.get('content-disposition')).toBe('attachment');
      const page = await fetch(`${preview.url}/`);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      const missing = await fetch(`${preview.url}/nope`);
      expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await preview.close();
    }
  });
});

describe('how media are downloaded', () => {
  it('retries a 503 and a reset connection, as GraphQL requests are retried', async () => {
    let calls = 0;
    routes.set('/media/flaky.pdf', (_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(503).end();
      else if (calls === 2) res.destroy();
      else res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
    });
    const { siteDir, failures } = await copy(['/media/flaky.pdf']);
    expect(failures).toEqual([]);
    expect(calls).toBe(3);
    expect(await readFile(join(siteDir, 'media/flaky.pdf'), 'utf8')).toBe('%PDF-1.4');
  });

  it('waits as Retry-After says rather than its own, much longer, backoff', async () => {
    let calls = 0;
    routes.set('/media/busy.pdf', (_req, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'retry-after': '0' }).end();
      else res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
    });
    // Without Retry-After the first retry would wait 5-10 minutes and the test would time out.
    const { failures } = await copy(['/media/busy.pdf'], { retryDelayMs: 600_000 });
    expect(failures).toEqual([]);
    expect(calls).toBe(2);
  }, 30_000);

  it('gives up after --retries and names the file', async () => {
    routes.set('/media/down.pdf', (_req, res) => void res.writeHead(502).end());
    const { failures } = await copy(['/media/down.pdf'], { retries: 2 });
    expect(failures).toEqual([expect.objectContaining({ cause: '/media/down.pdf: HTTP 502' })]);
    expect(requestsFor('/media/down.pdf')).toBe(3);
  });

  it('follows a redirect within the backend, and refuses one to another origin at any hop', async () => {
    routes.set('/media/moved.pdf', (_req, res) => void res.writeHead(301, { location: '/media/files/moved.pdf' }).end());
    routes.set('/media/files/moved.pdf', (_req, res) => void res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4'));
    expect((await copy(['/media/moved.pdf'])).failures).toEqual([]);

    routes.set('/media/away.png', (_req, res) => void res.writeHead(302, { location: `${elsewhere.url}/away.png` }).end());
    routes.set('/media/hop.png', (_req, res) => void res.writeHead(302, { location: '/media/hop2.png' }).end());
    routes.set('/media/hop2.png', (_req, res) => void res.writeHead(307, { location: `${elsewhere.url}/hop.png` }).end());
    const { failures, files } = await copy(['/media/away.png', '/media/hop.png']);
    expect(failures.map((f) => f.cause)).toEqual([
      expect.stringMatching(/^\/media\/away\.png: a redirect led to http:\/\/127\.0\.0\.1:\d+, which is not the backend's origin/),
      expect.stringMatching(/^\/media\/hop\.png: a redirect led to/),
    ]);
    expect(files).toEqual([]);
    expect(elsewhere.requests).toEqual([]);
  });

  it('stops a file over --media-max-bytes while it streams, with or without a Content-Length, and keeps nothing of it', async () => {
    const chunk = Buffer.alloc(64 * 1024, 1);
    // The same for an SVG, which downloads into memory to be cleaned.
    const endless =
      (type: string) =>
      (_req: RecordedRequest, res: ServerResponse): void => {
        res.writeHead(200, { 'content-type': type });
        // 16 MiB in chunks, no Content-Length: only counting while streaming can stop it.
        let sent = 0;
        const more = (): void => {
          while (sent < 256) {
            sent++;
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end();
        };
        res.on('error', () => undefined);
        more();
      };
    routes.set('/media/huge.zip', endless('application/zip'));
    routes.set('/media/huge.svg', endless('image/svg+xml'));
    routes.set(
      '/media/declared.zip',
      (_req, res) => void res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(50 * 1024 * 1024) }).end(),
    );
    const { siteDir, failures } = await copy(['/media/huge.zip', '/media/declared.zip', '/media/huge.svg'], { maxBytes: 1024 * 1024 });
    expect(failures.map((f) => f.cause)).toEqual([
      expect.stringContaining('larger than --media-max-bytes (1048576 bytes'),
      expect.stringContaining('larger than --media-max-bytes (1048576 bytes'),
      expect.stringContaining('larger than --media-max-bytes (1048576 bytes'),
    ]);
    expect(failures[0]!.fix).toMatch(/--media-max-bytes/);
    // Nothing of any file, not even a partial temporary file.
    expect(await snapshotTree(siteDir)).toEqual({});
    expect(requestsFor('/media/huge.zip')).toBe(1);
    expect(requestsFor('/media/huge.svg')).toBe(1);
  });
});

describe('a build whose content links to a page under /media/', () => {
  it('fails, naming the page and the file, and leaves the previous output as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-build-'));
    await seedBundle(join(dir, 'cache'));
    const out = join(dir, 'dist');
    const overrides = join(dir, 'overrides.json');
    await writeFile(overrides, '{}');
    const env = { CONTENT_OVERRIDES_FILE: overrides };
    const args = ['build', '--out', out, '--cache-dir', join(dir, 'cache'), '--quiet', '--no-report'];
    expect((await runCli(args, { env })).code).toBe(0);
    const before = await snapshotTree(out);
    const { loadSampleContent } = await import('../../backend/content/sample.ts');
    const slug = loadSampleContent().news.find((n) => n.status === 'PUBLISHED')!.slug;
    await writeFile(
      overrides,
      JSON.stringify({ news: [{ slug, body: '<p><a href="/media/login.html">Log in</a> <a href="/media/steal.js">script</a></p>' }] }),
    );
    const result = await runCli(args, { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PagesFailed');
    expect(result.stderr).toContain(`/news/${slug}`);
    expect(result.stderr).toContain('/media/login.html');
    expect(result.stderr).toContain('/media/steal.js');
    expect(await snapshotTree(out)).toEqual(before);
  }, 180_000);
});

describe('the media cache', () => {
  it('puts no SVG into the site that cleaning would change, whoever wrote the cache', async () => {
    const clean = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><rect width="2" height="2"/></svg>';
    routes.set(
      '/media/cached.svg',
      (_req, res) => void res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' }).end(clean),
    );
    const cacheDir = await mkdtemp(join(tmpdir(), 'media-cache-'));
    const copyCached = async (): Promise<string> => {
      const siteDir = await mkdtemp(join(tmpdir(), 'media-safety-'));
      const copier = createMediaCopier({ origin: backend.url, siteDir, concurrency: 1, cacheDir, timeoutMs: 10_000 });
      copier.addFrom(JSON.stringify(['/media/cached.svg']), '/news/a-page');
      expect(await copier.done()).toEqual([]);
      return readFile(join(siteDir, 'media/cached.svg'), 'utf8');
    };
    expect(await copyCached()).toBe(sanitizeSvg(clean));
    expect(await copyCached()).toBe(sanitizeSvg(clean));
    expect(requestsFor('/media/cached.svg')).toBe(1);
    // A cache writer swaps the cached copy for a scripted one (a new file, as a restored cache would hold).
    const [entry] = await readdir(join(cacheDir, 'media'));
    await rm(join(cacheDir, 'media', entry!));
    await writeFile(join(cacheDir, 'media', entry!), HOSTILE_SVG);
    const shipped = await copyCached();
    expect(shipped).toBe(sanitizeSvg(clean));
    expect(shipped).not.toMatch(/script|onload/i);
    expect(requestsFor('/media/cached.svg')).toBe(2);
  });
});

describe('sanitizeSvg', () => {
  it('keeps an ordinary drawing and its local references', () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs><rect width="2" height="2" fill="url(#g)"/><use href="#g"/></svg>';
    const clean = sanitizeSvg(svg);
    expect(clean).toContain('viewBox="0 0 2 2"');
    expect(clean).toContain('href="#g"');
    expect(sanitizeSvg(clean)).toBe(clean);
  });

  it('keeps only the SVG and XLink namespaces, and drops namespaced script, animation and data: references', () => {
    expect(sanitizeSvg('<svg xmlns="http://www.w3.org/1999/xhtml"><rect/></svg>')).not.toContain('xhtml');
    const clean = sanitizeSvg(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:x="http://www.w3.org/1999/xhtml"><x:script>1</x:script><svg:script xmlns:svg="http://www.w3.org/2000/svg">2</svg:script><a href="#x"><animate attributeName="href" to="javascript:3"/></a><use XLINK:HREF="data:image/svg+xml,x"/></svg>',
    );
    expect(clean).not.toMatch(/script|animate|javascript|data:|xhtml|<a\b/i);
  });
});
