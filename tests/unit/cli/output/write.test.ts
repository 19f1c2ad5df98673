import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPageWriter, fileKey } from '../../../../cli/output/write.ts';
import { rejectionOf } from '../../../helpers/rejection.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';

describe('createPageWriter', () => {
  const tempDir = tempDirPerTest('site-writer-');
  let dir: string;
  beforeEach(() => {
    dir = tempDir();
  });

  it("writes each page's index.html and _payload.json in its folder, UTF-8 encoded", async () => {
    const writer = createPageWriter(dir);
    await writer.write('/', { html: '<h1>Home</h1>', payload: '{"path":"/"}' });
    await writer.write('/news/zoë', { html: '<h1>Zoë – news</h1>', payload: '{"t":"Zoë"}' });
    await writer.write('/404-like', { html: '<p>no payload</p>', payload: null });
    await writer.drain();
    expect(await readFile(join(dir, 'index.html'), 'utf8')).toBe('<h1>Home</h1>');
    expect(await readFile(join(dir, '_payload.json'), 'utf8')).toBe('{"path":"/"}');
    expect(await readFile(join(dir, 'news/zoë/index.html'), 'utf8')).toBe('<h1>Zoë – news</h1>');
    expect(await readFile(join(dir, 'news/zoë/_payload.json'), 'utf8')).toBe('{"t":"Zoë"}');
    expect(await readFile(join(dir, '404-like/index.html'), 'utf8')).toBe('<p>no payload</p>');
    await expect(readFile(join(dir, '404-like/_payload.json'))).rejects.toThrow(/ENOENT/);
  });

  it('writes every page when far more are handed over than it queues', async () => {
    const writer = createPageWriter(dir, { batchSize: 4, maxQueued: 8 });
    for (let i = 0; i < 500; i++) await writer.write(`/items/${i % 7}/item-${i}`, { html: `<p>${i}</p>`, payload: `{"i":${i}}` });
    await writer.drain();
    for (const i of [0, 7, 255, 499]) {
      expect(await readFile(join(dir, `items/${i % 7}/item-${i}/index.html`), 'utf8')).toBe(`<p>${i}</p>`);
      expect(await readFile(join(dir, `items/${i % 7}/item-${i}/_payload.json`), 'utf8')).toBe(`{"i":${i}}`);
    }
  });

  it('refuses a page path that leaves the output folder', async () => {
    const writer = createPageWriter(join(dir, 'site'));
    await expect(writer.write('/../outside', { html: 'x', payload: null })).rejects.toThrow(/outside/);
    await writer.drain();
    await expect(readFile(join(dir, 'outside/index.html'))).rejects.toThrow(/ENOENT/);
  });

  it('fails the drain with the file system error, naming the path, and stops taking pages', async () => {
    // A file where the page's folder must go.
    await writeFile(join(dir, 'news'), 'not a folder');
    const writer = createPageWriter(dir, { batchSize: 1 });
    await writer.write('/news/first', { html: 'x', payload: '{}' });
    const error = await rejectionOf(writer.drain(), isErrnoException);
    expect(error.message).toMatch(/ENOTDIR|EEXIST/);
    expect(error.message).toContain(join(dir, 'news'));
    expect(error.code).toMatch(/ENOTDIR|EEXIST/);
    await expect(writer.write('/other', { html: 'y', payload: null })).rejects.toBe(error);
  });
});

function isErrnoException(value: unknown): value is NodeJS.ErrnoException {
  return value instanceof Error && typeof (value as NodeJS.ErrnoException).code === 'string';
}

describe('fileKey', () => {
  it('gives one key to the names a file system that ignores case and normalisation may take for one file', () => {
    expect(fileKey('News/Index.HTML')).toBe(fileKey('news/index.html'));
    // Fullwidth letters (NFKC), a final sigma against a sigma (case folding), an ignorable joiner (macOS).
    expect(fileKey('ｎews/index.html')).toBe(fileKey('news/index.html'));
    expect(fileKey('media/aς.png')).toBe(fileKey('media/aσ.png'));
    expect(fileKey('news/ind\u200cex.html')).toBe(fileKey('news/index.html'));
    expect(fileKey('media/a.png')).not.toBe(fileKey('media/b.png'));
  });
});
