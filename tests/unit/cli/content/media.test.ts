import { link, lstat, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createMediaCopier, maxAgeOf } from '../../../../cli/content/media.ts';

/** A backend that answers every medium with an empty drawing, and the paths it was asked for. */
function svgBackend(): { fetch: typeof fetch; asked: string[] } {
  const asked: string[] = [];
  const fetchImpl = (async (url: string) => {
    asked.push(new URL(url).pathname);
    return new Response('<svg xmlns="http://www.w3.org/2000/svg"></svg>', { headers: { 'Content-Type': 'image/svg+xml' } });
  }) as typeof fetch;
  return { fetch: fetchImpl, asked };
}

describe('media', () => {
  it('finds media URLs in JSON fields and inside rich-text HTML', () => {
    const json = JSON.stringify({
      image: { url: '/media/news/a.svg' },
      body: '<p><img src="/media/news/b.png" alt=""></p>',
      other: '/mediax/c',
    });
    const copier = createMediaCopier({
      origin: 'http://127.0.0.1:1',
      siteDir: tmpdir(),
      concurrency: 1,
      present: new Set(['/media/news/a.svg', '/media/news/b.png']),
    });
    copier.addFrom(json);
    expect([...copier.urls].sort()).toEqual(['/media/news/a.svg', '/media/news/b.png']);
  });

  it('starts copying before it knows what the output holds, and copies only what it lacks once told', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    const { fetch: fakeFetch, asked } = svgBackend();
    let tell!: (present: ReadonlySet<string>) => void;
    const copier = createMediaCopier({
      origin: 'http://127.0.0.1:1',
      siteDir: dir,
      concurrency: 2,
      fetchImpl: fakeFetch,
      present: new Promise((resolve) => (tell = resolve)),
    });
    copier.addFrom(JSON.stringify(['/media/kept.svg', '/media/new.svg']));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toEqual([]);
    tell(new Set(['/media/kept.svg']));
    expect(await copier.done()).toEqual([]);
    expect(asked).toEqual(['/media/new.svg']);
    expect(await readdir(join(dir, 'media'))).toEqual(['new.svg']);
  });

  it('skips the copies not started once stopped, and done() still settles', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    const { fetch: fakeFetch, asked } = svgBackend();
    // What the output holds is never told: a build that failed before its build id was known.
    const copier = createMediaCopier({
      origin: 'http://127.0.0.1:1',
      siteDir: dir,
      concurrency: 1,
      fetchImpl: fakeFetch,
      present: new Promise(() => undefined),
    });
    copier.addFrom(JSON.stringify(['/media/a.svg', '/media/b.svg', '/media/c.svg']));
    copier.stop();
    expect(await copier.done()).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('aborts the downloads under way when stopped, without retrying them', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    let started = 0;
    // A backend that never answers: only the stop can end the download (the timeout is a minute).
    const hanging = ((_url: string, init?: RequestInit) => {
      started++;
      return new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    }) as typeof fetch;
    const copier = createMediaCopier({
      origin: 'http://127.0.0.1:1',
      siteDir: dir,
      concurrency: 2,
      fetchImpl: hanging,
      timeoutMs: 60_000,
      retries: 3,
      retryDelayMs: 60_000,
    });
    copier.addFrom(JSON.stringify(['/media/a.svg', '/media/b.svg', '/media/c.svg']));
    await vi.waitFor(() => expect(started).toBe(2));
    copier.stop();
    await copier.done();
    expect(started).toBe(2);
    expect(await readdir(dir)).toEqual(['media']);
    expect(await readdir(join(dir, 'media'))).toEqual([]);
  });

  it('copies once two URLs that name the same file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    const { fetch: fakeFetch, asked } = svgBackend();
    const copier = createMediaCopier({ origin: 'http://127.0.0.1:1', siteDir: dir, concurrency: 2, fetchImpl: fakeFetch });
    copier.addFrom(JSON.stringify(['/media/a.svg', '/media/%61.svg']));
    expect(await copier.done()).toEqual([]);
    expect(asked).toEqual(['/media/a.svg']);
    expect(await readdir(join(dir, 'media'))).toEqual(['a.svg']);
  });

  it('fails cleanly, naming the file, when one medium is a folder of another', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    const fakeFetch = (async () =>
      new Response('<svg xmlns="http://www.w3.org/2000/svg"></svg>', { headers: { 'Content-Type': 'image/svg+xml' } })) as typeof fetch;
    const copier = createMediaCopier({ origin: 'http://127.0.0.1:1', siteDir: dir, concurrency: 1, fetchImpl: fakeFetch });
    copier.addFrom(JSON.stringify(['/media/x.svg/y.svg', '/media/x.svg']));
    const failures = await copier.done();
    expect(failures).toEqual([expect.objectContaining({ page: '/media/x.svg', cause: expect.stringContaining('/media/x.svg') })]);
  });

  it('refuses a URL that leads under /media/_img/ other than as the build writes its derivatives', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    const { fetch: fakeFetch, asked } = svgBackend();
    const copier = createMediaCopier({
      origin: 'http://127.0.0.1:1',
      siteDir: dir,
      concurrency: 2,
      fetchImpl: fakeFetch,
      images: { widths: [320], formats: ['webp'], fallbackWidth: 1200, maxPixels: 1e8, service: null },
    });
    copier.addFrom(
      JSON.stringify(['/media/./_img/0123456789abcdef0123/800.webp', '/media/x%2F..%2F_img/0123456789abcdef0123/800.webp']),
      '/news/a',
    );
    const failures = await copier.done();
    expect(failures.map((f) => f.cause)).toEqual([
      "/media/./_img/0123456789abcdef0123/800.webp: the path leads under /media/_img/, which holds only the build's own image derivatives",
      "/media/x%2F..%2F_img/0123456789abcdef0123/800.webp: the path leads under /media/_img/, which holds only the build's own image derivatives",
    ]);
    expect(asked).toEqual([]);
  });

  it('refuses a media URL whose encoded slashes or dots lead outside media/', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'media-'));
    const fakeFetch = (async () =>
      new Response('<svg xmlns="http://www.w3.org/2000/svg"></svg>', { headers: { 'Content-Type': 'image/svg+xml' } })) as typeof fetch;
    const copier = createMediaCopier({ origin: 'http://127.0.0.1:1', siteDir: dir, concurrency: 2, fetchImpl: fakeFetch });
    for (const url of ['/media/..%2F_assets%2Fentry.js', '/media/ok.svg']) copier.addFrom(JSON.stringify(url));
    const failures = await copier.done();
    expect(failures.map((f) => f.page)).toEqual(['/media/..%2F_assets%2Fentry.js']);
    expect(failures[0]!.cause).toContain('outside media/');
    expect(await readdir(dir)).toEqual(['media']);
    expect(await readdir(join(dir, 'media'))).toEqual(['ok.svg']);
  });
});

describe('media cache', () => {
  // A drawing as the SVG cleaner writes it, so the bytes in the output are the bytes served.
  const image = (): Uint8Array<ArrayBuffer> =>
    new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1" /></svg>\n');
  const counting = (cacheControl: string | null): { fetch: typeof fetch; calls: string[] } => {
    const calls: string[] = [];
    return {
      calls,
      fetch: (async (url: string | URL) => {
        calls.push(String(url));
        return new Response(image(), {
          headers: { 'Content-Type': 'image/svg+xml', ...(cacheControl ? { 'Cache-Control': cacheControl } : {}) },
        });
      }) as typeof fetch,
    };
  };
  const copyInto = async (siteDir: string, cacheDir: string, fetchImpl: typeof fetch, now: number): Promise<void> => {
    const copier = createMediaCopier({ origin: 'http://127.0.0.1:1', siteDir, concurrency: 2, cacheDir, fetchImpl, now: () => now });
    copier.addFrom(JSON.stringify({ image: '/media/a.svg', body: '<img src=\\"/media/a.svg\\">' }));
    expect(await copier.done()).toEqual([]);
  };

  it('takes a file from the cache without asking the backend while its max-age says it is fresh', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'media-cache-'));
    const backend = counting('public, max-age=60');
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), cacheDir, backend.fetch, 0);
    const second = await mkdtemp(join(tmpdir(), 'media-'));
    await copyInto(second, cacheDir, backend.fetch, 59_000);
    expect(backend.calls).toEqual(['http://127.0.0.1:1/media/a.svg']);
    expect(new Uint8Array(await readFile(join(second, 'media/a.svg')))).toEqual(image());
  });

  it("names the embedded backend's files by its cache origin, so a build on another port reuses them", async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'media-cache-'));
    const backend = counting('public, max-age=60');
    const copy = async (origin: string, cacheOrigin?: string): Promise<void> => {
      const copier = createMediaCopier({
        origin,
        siteDir: await mkdtemp(join(tmpdir(), 'media-')),
        concurrency: 2,
        cacheDir,
        fetchImpl: backend.fetch,
        now: () => 0,
        cacheOrigin,
      });
      copier.addFrom(JSON.stringify({ image: '/media/a.svg' }));
      expect(await copier.done()).toEqual([]);
    };
    await copy('http://127.0.0.1:41001', 'embedded-sample-backend:');
    await copy('http://127.0.0.1:41002', 'embedded-sample-backend:');
    expect(backend.calls).toEqual(['http://127.0.0.1:41001/media/a.svg']);
    // Without it, another origin is another backend: its file is fetched.
    await copy('http://127.0.0.1:41003');
    expect(backend.calls).toHaveLength(2);
  });

  for (const planted of ['a symbolic link', 'a hard link'] as const) {
    it(`never takes ${planted} planted in the cache for an entry: the file is downloaded, nothing it points to published`, async () => {
      const cacheDir = await mkdtemp(join(tmpdir(), 'media-cache-'));
      // The bytes the attacker wants published: a file of the machine, here a PDF so the type fits.
      const body = new TextEncoder().encode('%PDF-1.4 the build cache key');
      const copy = async (site: string, now: number): Promise<void> => {
        const copier = createMediaCopier({
          origin: 'http://127.0.0.1:1',
          siteDir: site,
          concurrency: 2,
          cacheDir,
          now: () => now,
          fetchImpl: (async () =>
            new Response(new TextEncoder().encode('%PDF-1.4 real'), {
              headers: { 'Content-Type': 'application/pdf', 'Cache-Control': 'public, max-age=60' },
            })) as typeof fetch,
        });
        copier.addFrom(JSON.stringify({ file: '/media/a.pdf' }));
        expect(await copier.done()).toEqual([]);
      };
      await copy(await mkdtemp(join(tmpdir(), 'media-')), 0);
      const [entry] = await readdir(join(cacheDir, 'media'));
      const secret = join(cacheDir, '..', `secret-${planted.length}`);
      await writeFile(secret, body);
      await rm(join(cacheDir, 'media', entry!));
      await (planted === 'a hard link' ? link(secret, join(cacheDir, 'media', entry!)) : symlink(secret, join(cacheDir, 'media', entry!)));
      const site = await mkdtemp(join(tmpdir(), 'media-'));
      await copy(site, 1_000);
      expect((await lstat(join(site, 'media/a.pdf'))).isSymbolicLink()).toBe(false);
      expect(await readFile(join(site, 'media/a.pdf'), 'utf8')).toBe('%PDF-1.4 real');
    });
  }

  it('puts a cached file into the output as a hard link, which a later download never changes', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'media-cache-'));
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), cacheDir, counting('max-age=60').fetch, 0);
    const site = await mkdtemp(join(tmpdir(), 'media-'));
    await copyInto(site, cacheDir, counting('max-age=60').fetch, 1_000);
    const [entry] = await readdir(join(cacheDir, 'media'));
    const [output, cached] = await Promise.all([stat(join(site, 'media/a.svg')), stat(join(cacheDir, 'media', entry!))]);
    expect(output.ino).toBe(cached.ino);
    // Stale now: the download replaces the cache entry with a new file, and the linked output keeps its bytes.
    const fresh = (async () =>
      new Response('<svg xmlns="http://www.w3.org/2000/svg"></svg>', {
        headers: { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'max-age=60' },
      })) as typeof fetch;
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), cacheDir, fresh, 120_000);
    expect(new Uint8Array(await readFile(join(site, 'media/a.svg')))).toEqual(image());
  });

  it('asks again once the file is stale, and never caches what the backend marks no-cache', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'media-cache-'));
    const fresh = counting('max-age=60');
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), cacheDir, fresh.fetch, 0);
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), cacheDir, fresh.fetch, 61_000);
    expect(fresh.calls).toHaveLength(2);
    // The fresh download replaced the stale entry rather than adding one beside it.
    expect(await readdir(join(cacheDir, 'media'))).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.121000\.[0-9a-f]{32}$/)]);

    const uncached = counting('no-cache');
    const otherCache = await mkdtemp(join(tmpdir(), 'media-cache-'));
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), otherCache, uncached.fetch, 0);
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), otherCache, uncached.fetch, 1);
    expect(uncached.calls).toHaveLength(2);
  });

  it('lets entries of the cache format before 2026-11-23 go, and keeps its own', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'media-cache-'));
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), cacheDir, counting('max-age=60').fetch, 0);
    const old = 'a'.repeat(32);
    await writeFile(join(cacheDir, 'media', old), 'body');
    await writeFile(join(cacheDir, 'media', `${old}.json`), '{"source":"http://127.0.0.1:1/media/b.svg","expires":1e15}');
    const backend = counting('max-age=60');
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), cacheDir, backend.fetch, 1_000);
    expect(backend.calls).toEqual([]);
    await vi.waitFor(async () =>
      expect(await readdir(join(cacheDir, 'media'))).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.60000\.[0-9a-f]{32}$/)]),
    );
  });

  it("keeps what was fetched with the editor's token apart: a build without it asks the backend", async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'media-cache-'));
    const withToken = counting('public, max-age=60');
    const drafts = createMediaCopier({
      origin: 'http://127.0.0.1:1',
      siteDir: await mkdtemp(join(tmpdir(), 'media-')),
      concurrency: 1,
      cacheDir,
      fetchImpl: withToken.fetch,
      token: 'editor-token',
      now: () => 0,
    });
    drafts.addFrom(JSON.stringify('/media/a.svg'));
    expect(await drafts.done()).toEqual([]);
    const publicBuild = counting('public, max-age=60');
    await copyInto(await mkdtemp(join(tmpdir(), 'media-')), cacheDir, publicBuild.fetch, 1_000);
    expect(publicBuild.calls).toEqual(['http://127.0.0.1:1/media/a.svg']);
  });

  it('reads max-age from Cache-Control, and none from no-store, no-cache or private', () => {
    expect(maxAgeOf('public, max-age=86400')).toBe(86400);
    expect(maxAgeOf('max-age=60, no-store')).toBe(0);
    expect(maxAgeOf('private, max-age=60')).toBe(0);
    expect(maxAgeOf(null)).toBe(0);
  });
});
