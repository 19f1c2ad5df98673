import { mkdir, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { startStaticServer, type StaticServer } from '../../../../cli/serve/static-server.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';

/** The raw answer, undecoded (fetch would gunzip it and hide the encoding). */
function get(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the preview server', () => {
  const dir = tempDirPerTest('static-server-');
  let server: StaticServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });
  const html = '<!doctype html><title>Home</title>' + '<p>Hello</p>'.repeat(200);
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
  const serve = async (options: { compress?: boolean } = {}): Promise<string> => {
    await writeFile(join(dir(), 'index.html'), html);
    await mkdir(join(dir(), 'media'));
    await writeFile(join(dir(), 'media/a.png'), png);
    await writeFile(join(dir(), '404.html'), '<!doctype html><title>Not found</title>');
    server = await startStaticServer({ root: dir(), ...options });
    return server.url;
  };

  it('serves an image derivative as immutable, as publish stores it, and other media as revalidated', async () => {
    const url = await serve();
    await mkdir(join(dir(), 'media/_img/0123456789abcdef0123'), { recursive: true });
    await writeFile(join(dir(), 'media/_img/0123456789abcdef0123/640.webp'), png);
    expect((await get(`${url}/media/_img/0123456789abcdef0123/640.webp`)).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await get(`${url}/media/a.png`)).headers['cache-control']).toBe('no-cache');
  });

  it('gzips text for a client that accepts it, as a production host does', async () => {
    const url = await serve();
    const answer = await get(url + '/', { 'accept-encoding': 'gzip, deflate, br' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(answer.headers['content-length']).toBeUndefined();
    expect(answer.body.length).toBeLessThan(Buffer.byteLength(html) / 4);
    expect(gunzipSync(answer.body).toString()).toBe(html);
  });

  it('sends the file as it is to a client that does not accept gzip, or refuses it with q=0', async () => {
    const url = await serve();
    for (const headers of [{}, { 'accept-encoding': 'br' }, { 'accept-encoding': 'gzip;q=0, br' }] as Record<string, string>[]) {
      const answer = await get(url + '/', headers);
      expect(answer.headers['content-encoding']).toBeUndefined();
      expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(html)));
      expect(answer.body.toString()).toBe(html);
    }
  });

  it('never gzips images, which are compressed already', async () => {
    const url = await serve();
    const answer = await get(url + '/media/a.png', { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toBeUndefined();
    expect(answer.body).toEqual(png);
  });

  it('gzips the 404 page too, and answers HEAD with the headers alone', async () => {
    const url = await serve();
    const missing = await get(url + '/nope', { 'accept-encoding': 'gzip' });
    expect(missing.status).toBe(404);
    expect(gunzipSync(missing.body).toString()).toContain('Not found');
    const head = await get(url + '/', { 'accept-encoding': 'gzip' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(head.body.length).toBe(0);
  });

  it('serves every file as it is on disk when compression is off', async () => {
    const url = await serve({ compress: false });
    const answer = await get(url + '/', { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.body.toString()).toBe(html);
  });
});
