import { mkdir, mkdtemp, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../../../cli/serve/dev-server.ts';
import { watchFiles } from '../../../../cli/serve/dev-watch.ts';
import { createLiveReload, injectLiveReload, LIVE_RELOAD_PATH, LIVE_RELOAD_SCRIPT_PATH } from '../../../../cli/serve/live-reload.ts';
import { createFirstPages } from '../../../../cli/serve/first-pages.ts';

let server: DevServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function builtSite(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'dev-server-'));
  await mkdir(join(root, 'news'), { recursive: true });
  await writeFile(join(root, 'news/index.html'), '<!doctype html><html><body><div id="app">News</div></body></html>');
  await writeFile(join(root, '404.html'), '<!doctype html><html><body>Not here</body></html>');
  await writeFile(join(root, 'news/_payload.json'), '{"v":1}');
  return root;
}

describe('the dev server', () => {
  it('serves the build uncached, with the live-reload client in HTML only', async () => {
    server = await startDevServer({ root: await builtSite(), port: 0, host: '127.0.0.1', liveReload: createLiveReload() });
    const page = await fetch(`${server.url}/news`);
    const html = await page.text();
    expect(page.headers.get('cache-control')).toBe('no-store');
    // The client is a file of the dev server's own, so the pages' Content-Security-Policy (script-src 'self') allows it.
    const tag = `<script src="${LIVE_RELOAD_SCRIPT_PATH}"></script>`;
    expect(html).toContain(tag);
    expect(html).not.toMatch(/<script>/);
    expect(html.indexOf(tag)).toBeLessThan(html.indexOf('</body>'));
    const client = await fetch(`${server.url}${LIVE_RELOAD_SCRIPT_PATH}`);
    expect(client.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await client.text()).toContain(
      `new EventSource("${LIVE_RELOAD_PATH}"+'?path='+encodeURIComponent(p)+'&first='+encodeURIComponent(f))`,
    );
    const missing = await fetch(`${server.url}/nowhere`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain(tag);
    expect(await (await fetch(`${server.url}/news/_payload.json`)).text()).toBe('{"v":1}');
  });

  it('tells every open page to reload through its event stream', async () => {
    const liveReload = createLiveReload();
    server = await startDevServer({ root: await builtSite(), port: 0, host: '127.0.0.1', liveReload });
    const response = await fetch(server.url + LIVE_RELOAD_PATH);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    let received = '';
    while (liveReload.clients() === 0) await new Promise((r) => setTimeout(r, 10));
    liveReload.send({ type: 'reload', buildId: 'b2' });
    while (!received.includes('data: b2')) received += new TextDecoder().decode((await reader.read()).value);
    expect(received).toContain('event: reload\ndata: b2\n\n');
    await reader.cancel();
  });

  it('knows the page each event stream shows, and reloads only the pages an event is for', async () => {
    const liveReload = createLiveReload();
    server = await startDevServer({ root: await builtSite(), port: 0, host: '127.0.0.1', liveReload });
    const listen = async (query: string) => (await fetch(`${server!.url}${LIVE_RELOAD_PATH}?path=${query}`)).body!.getReader();
    const news = await listen('/news/&first=3');
    const home = await listen('/');
    while (liveReload.clients() < 2) await new Promise((r) => setTimeout(r, 10));
    expect(liveReload.openPaths().sort()).toEqual(['/', '/news']);
    expect(liveReload.send({ type: 'reload', buildId: 'first' }, (client) => client.path === '/news' && client.first === '3')).toBe(1);
    expect(liveReload.send({ type: 'reload', buildId: 'b3' })).toBe(2);
    const read = async (reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> => {
      let received = '';
      while (!received.includes('data: b3')) received += new TextDecoder().decode((await reader.read()).value);
      return received;
    };
    expect(await read(news)).toContain('data: first\n\n');
    expect(await read(home)).not.toContain('data: first');
    await news.cancel();
    await home.cancel();
    // A page of another site may not say what is open here.
    expect((await fetch(`${server.url}${LIVE_RELOAD_PATH}?path=/`, { headers: { origin: 'http://elsewhere.example' } })).status).toBe(403);
  });

  it('serves the pages rendered first in place of the build, and their media the build does not hold yet', async () => {
    const root = await builtSite();
    const copy = join(await mkdtemp(join(tmpdir(), 'first-media-')), 'new.svg');
    await writeFile(copy, '<svg/>');
    const overlay = new Map([
      ['news/index.html', { text: '<!doctype html><html><body>Edited</body></html>', first: '7' }],
      ['news/_payload.json', { text: '{"v":2}' }],
      ['media/new.svg', { file: copy }],
    ]);
    server = await startDevServer({ root, port: 0, host: '127.0.0.1', liveReload: createLiveReload(), overlay: () => overlay });
    for (const path of ['/news', '/news/', '/news//', '/news/index.html']) {
      const html = await (await fetch(server.url + path)).text();
      expect(html).toContain('Edited');
      // Its live-reload client says which rendering it shows.
      expect(html).toContain(`<script src="${LIVE_RELOAD_SCRIPT_PATH}?first=7"></script>`);
    }
    expect(await (await fetch(`${server.url}/news/_payload.json`)).text()).toBe('{"v":2}');
    const medium = await fetch(`${server.url}/media/new.svg`);
    expect(medium.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(await medium.text()).toBe('<svg/>');
    // A copy that is gone gives way to the folder: a 404 here rather than a failed request.
    overlay.set('media/gone.svg', { file: join(copy, '../gone.svg') });
    expect((await fetch(`${server.url}/media/gone.svg`)).status).toBe(404);
    overlay.clear();
    expect(await (await fetch(`${server.url}/news`)).text()).toContain('News');
  });

  it('answers a request line no URL can be made of with 400, and goes on serving', async () => {
    server = await startDevServer({ root: await builtSite(), port: 0, host: '127.0.0.1', liveReload: createLiveReload() });
    const { port } = new URL(server.url);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(`GET http://[ HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 400/);
    expect((await fetch(`${server.url}/news`)).status).toBe(200);
  });

  it('refuses a port that is taken with PortInUse', async () => {
    server = await startDevServer({ root: await builtSite(), port: 0, host: '127.0.0.1', liveReload: createLiveReload() });
    const port = Number(new URL(server.url).port);
    await expect(
      startDevServer({ root: await builtSite(), port, host: '127.0.0.1', liveReload: createLiveReload() }),
    ).rejects.toMatchObject({ code: 'PortInUse' });
  });

  it('adds the client to a page without a body end too', () => {
    expect(injectLiveReload('<p>x</p>')).toBe(`<p>x</p><script src="${LIVE_RELOAD_SCRIPT_PATH}"></script>`);
  });
});

describe('watching for changes', () => {
  it('reports a burst of changes once, ignores editor swap files, and sees a file replaced by rename', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dev-watch-'));
    const other = await mkdtemp(join(tmpdir(), 'dev-watch-file-'));
    const single = join(other, 'overrides.json');
    await writeFile(single, '{}');
    await mkdir(join(dir, 'pages'));
    const batches: string[][] = [];
    const watcher = watchFiles({ dirs: [dir], files: [single] }, (files) => batches.push(files.sort()), { debounceMs: 1000 });
    try {
      await new Promise((r) => setTimeout(r, 100));
      await writeFile(join(dir, 'pages/a.tsx'), 'a');
      await writeFile(join(dir, 'pages/.a.tsx.swp'), 'swap');
      await writeFile(join(dir, 'pages/b.tsx'), 'b');
      await writeFile(join(other, 'unrelated.txt'), 'x');
      await writeFile(join(other, 'tmp.json'), '{"home":{}}');
      await rename(join(other, 'tmp.json'), single);
      await expect.poll(() => batches.length, { timeout: 10_000 }).toBe(1);
      await new Promise((r) => setTimeout(r, 1500));
      expect(batches).toEqual([[join(dir, 'pages/a.tsx'), join(dir, 'pages/b.tsx'), single].sort()]);
    } finally {
      watcher.close();
    }
  });
});

describe('the pages rendered first', () => {
  const page = (path: string, body: string) => ({ path, html: `<html><body>${body}</body></html>`, payload: `{"v":"${body}"}`, media: {} });
  const folder = async (): Promise<string> => {
    const root = await mkdtemp(join(tmpdir(), 'first-pages-'));
    await mkdir(join(root, 'news'), { recursive: true });
    await writeFile(join(root, 'news/index.html'), '<html><body>before</body></html>');
    await writeFile(join(root, 'news/_payload.json'), '{"v":"before"}');
    await writeFile(join(root, 'index.html'), '<html><body>home</body></html>');
    await writeFile(join(root, '_payload.json'), '{"v":"home"}');
    return root;
  };

  it('serves a page the edit changed, not one it left as the folder has it, and keeps the page after a build that wrote it', async () => {
    const root = await folder();
    const first = createFirstPages(root);
    expect(await first.show([page('/news', 'after'), page('/', 'home')], 10)).toEqual(['/news']);
    expect([...first.overlay().keys()].sort()).toEqual(['news/_payload.json', 'news/index.html']);
    expect(first.overlay().get('news/index.html')).toEqual({ text: '<html><body>after</body></html>', first: '1' });
    // The build wrote what was shown first: neither page needs a reload.
    await writeFile(join(root, 'news/index.html'), '<html><body>after</body></html>');
    await writeFile(join(root, 'news/_payload.json'), '{"v":"after"}');
    expect(await first.settle(20, true)).toEqual({
      current: new Map([
        ['/news', '1'],
        ['/', ''],
      ]),
      dropped: new Set(),
    });
    expect(first.overlay().size).toBe(0);
  });

  it('reloads a page the build wrote otherwise, keeps one edited after the build started, and drops what a failed build did not write', async () => {
    const root = await folder();
    const first = createFirstPages(root);
    await first.show([page('/news', 'after')], 10);
    await first.show([page('/', 'home again')], 30);
    // The build (started at 20) wrote something else for /news; the home page's edit came after it started.
    expect(await first.settle(20, true)).toEqual({ current: new Map([['/', '2']]), dropped: new Set() });
    expect([...first.overlay().keys()].sort()).toEqual(['_payload.json', 'index.html']);
    expect(await first.settle(40, false)).toEqual({ current: new Map(), dropped: new Set(['/']) });
    expect(first.overlay().size).toBe(0);
  });
});
