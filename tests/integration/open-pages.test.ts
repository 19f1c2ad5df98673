import { mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { htmlFileFor, payloadFileFor } from '../../runtime/shared/paths.ts';
import { readBuild } from '../../cli/output/output.ts';
import { startOpenPages, type OpenPages } from '../../cli/serve/open-pages.ts';
import { MAX_OPEN_PAGES, type OpenPage } from '../../cli/serve/open-page-renderer.ts';
import { createLogger } from '../../cli/terminal/logger.ts';
import { gqlData, loginToken } from '../backend/client.ts';
import { ROOT, runCli } from '../helpers/cli.ts';
import { createContent, deleteContent, updateContent } from '../helpers/content-edits.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * Issue 19.5: `site dev` renders the pages open in a browser first after an edit in the backend
 * (cli/serve/open-page-renderer.ts), in the process it keeps for that (`site dev-pages`). A page rendered
 * that way must be the very bytes the build writes: every page of the sample site rendered alone equals
 * the full build's files, and after edits, the update in place writes what was rendered first.
 */

let root: string;
let backend: ContentServer;
let renderer: OpenPages;
let token: string;
const out = (): string => join(root, 'out');

const build = async (): Promise<void> => {
  const result = await runCli([
    'build',
    '--endpoint',
    backend.url,
    '--out',
    out(),
    '--cache-dir',
    join(root, 'cache'),
    '--no-report',
    '--no-search',
  ]);
  expect(result.code, result.stdout + result.stderr).toBe(0);
};

const files = async (path: string): Promise<{ html: string; payload: string | null }> => ({
  html: await readFile(join(out(), htmlFileFor(path)), 'utf8'),
  payload: await readFile(join(out(), payloadFileFor(path)), 'utf8').catch(() => null),
});

const render = async (paths: readonly string[]): Promise<{ pages: Map<string, OpenPage>; skipped: Map<string, string> }> => {
  const answer = await renderer.render(paths, 60_000);
  expect(answer).not.toBeNull();
  return {
    pages: new Map(answer!.pages.map((page) => [page.path, page])),
    skipped: new Map(answer!.skipped.map(({ path, why }) => [path, why])),
  };
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-open-pages-'));
  await seedBundle(join(root, 'cache'));
  backend = await startContentServer({ now: () => new Date('2026-06-01T12:00:00Z') });
  token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
  await build();
  renderer = startOpenPages(
    ROOT,
    ['--endpoint', backend.url, '--out', out(), '--cache-dir', join(root, 'cache'), '--no-search', '--quiet'],
    createLogger('warn'),
  );
  expect(await renderer.ready()).toBe(true);
}, 180_000);

afterAll(async () => {
  renderer?.close();
  await backend?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the open pages rendered first', () => {
  it('are, page for page, the bytes the full build wrote: every page of the sample site, each rendered alone', async () => {
    const { meta } = await readBuild(out());
    expect(meta.prerendered.length).toBeGreaterThan(100);
    // As many at a time as are rendered after one edit.
    const pages = new Map<string, OpenPage>();
    for (let i = 0; i < meta.prerendered.length; i += MAX_OPEN_PAGES) {
      const batch = await render(meta.prerendered.slice(i, i + MAX_OPEN_PAGES));
      expect([...batch.skipped]).toEqual([]);
      for (const [path, page] of batch.pages) pages.set(path, page);
    }
    expect(pages.size).toBe(meta.prerendered.length);
    for (const path of meta.prerendered) {
      const page = pages.get(path)!;
      const built = await files(path);
      expect(page.html, path).toBe(built.html);
      expect(page.payload, path).toBe(built.payload);
    }
    // The folder holds every medium these pages show: none is copied for the dev server to serve.
    expect([...pages.values()].filter((page) => Object.keys(page.media).length > 0)).toEqual([]);
  }, 180_000);

  it('show an edit, an added and a deleted item as the update in place then writes them, and leave what they cannot render to it', async () => {
    const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string; slug: string }[] } }>(
      backend,
      '{ newsItems(first: 2) { nodes { id slug } } }',
    );
    const [edited, deleted] = newsItems.nodes as [{ id: string; slug: string }, { id: string; slug: string }];
    await updateContent(backend, token, 'NewsItem', edited.id, { title: 'Shown first, then built' });
    const added = await createContent(backend, token, 'NewsItem', {
      slug: 'rendered-first',
      title: 'Added and rendered first',
      date: '2099-01-01',
    });
    await deleteContent(backend, token, 'NewsItem', deleted.id);

    // A medium the folder does not hold (as an image uploaded with the edit would be): the page is served with the renderer's copy of it.
    const editedImage = `media/news/${edited.slug}.svg`;
    await rename(join(out(), editedImage), join(root, 'held-back.svg'));
    const open = [
      '/',
      '/news',
      `/news/${edited.slug}`,
      '/events',
      '/events/page/2',
      `/news/${deleted.slug}`,
      '/news/rendered-first',
      '/no/such/page',
    ];
    const { pages, skipped } = await render(open).finally(() => rename(join(root, 'held-back.svg'), join(out(), editedImage)));
    expect(Object.keys(pages.get(`/news/${edited.slug}`)!.media)).toEqual([editedImage]);
    expect(await readFile(pages.get(`/news/${edited.slug}`)!.media[editedImage]!)).toEqual(await readFile(join(out(), editedImage)));
    expect(pages.get(`/news/${edited.slug}`)!.html).toContain('Shown first, then built');
    expect(pages.get('/news')!.html).toContain('Added and rendered first');
    expect(skipped.get(`/news/${deleted.slug}`)).toBe('the backend no longer lists this page');
    // The paths come from whoever connects to the dev server: only the build's pages are rendered.
    expect(skipped.get('/news/rendered-first')).toBe('not a page of the build in the folder');
    expect(skipped.get('/no/such/page')).toBe('not a page of the build in the folder');
    expect(added.slug).toBe('rendered-first');

    // What a route derives once per build (the event list) is derived again for each edit.
    const { events } = await gqlData<{ events: { nodes: { id: string; title: string }[] } }>(
      backend,
      '{ events(first: 100) { nodes { id title } } }',
    );
    const listed = events.nodes.find((event) => pages.get('/events/page/2')!.html.includes(`>${event.title}<`))!;
    expect(listed).toBeDefined();
    await updateContent(backend, token, 'Event', listed.id, { title: 'An event retitled after the first render' });
    const again = await render(['/events/page/2']);
    expect(again.pages.get('/events/page/2')!.html).toContain('An event retitled after the first render');
    pages.set('/events/page/2', again.pages.get('/events/page/2')!);

    await build();
    for (const [path, page] of pages) {
      const built = await files(path);
      expect(page.html, path).toBe(built.html);
      expect(page.payload, path).toBe(built.payload);
    }
  }, 180_000);
});

describe('the renderer of open pages', () => {
  it('renders at most a few pages an edit, however many are said to be open', async () => {
    const { meta } = await readBuild(out());
    const { pages, skipped } = await render(meta.prerendered.slice(0, MAX_OPEN_PAGES + 5));
    expect(pages.size).toBe(MAX_OPEN_PAGES);
    expect([...skipped.values()]).toEqual(Array(5).fill(`more than ${MAX_OPEN_PAGES} pages are open`));
  }, 60_000);
});
