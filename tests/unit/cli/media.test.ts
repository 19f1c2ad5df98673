import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collectMediaUrls, copyMedia } from '../../../cli/media.ts';

describe('media', () => {
  it('finds media URLs in JSON fields and inside rich-text HTML', () => {
    const json = JSON.stringify({ image: { url: '/media/news/a.svg' }, body: '<p><img src="/media/news/b.png" alt=""></p>', other: '/mediax/c' });
    expect([...collectMediaUrls([json])].sort()).toEqual(['/media/news/a.svg', '/media/news/b.png']);
  });

  it('refuses a media URL whose encoded slashes or dots lead outside media/', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    const fakeFetch = (async () => new Response('payload')) as typeof fetch;
    const failures = await copyMedia(['/media/..%2F_assets%2Fentry.js', '/media/ok.svg'], 'http://127.0.0.1:1', dir, 2, fakeFetch);
    expect(failures.map((f) => f.page)).toEqual(['/media/..%2F_assets%2Fentry.js']);
    expect(failures[0]!.cause).toContain('outside media/');
    expect(await readdir(dir)).toEqual(['media']);
    expect(await readdir(join(dir, 'media'))).toEqual(['ok.svg']);
  });
});
