import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR } from '../../backend/auth.ts';
import { startContentServer, type ContentServer } from '../../backend/server.ts';
import { htmlFileFor, LATEST_FILE, metaFileFor, payloadFileFor } from '../../runtime/shared/paths.ts';
import { startOpenPages, type OpenPages } from '../../cli/serve/open-pages.ts';
import type { OpenPage } from '../../cli/serve/open-page-renderer.ts';
import { createLogger } from '../../cli/terminal/logger.ts';
import { gqlData, loginToken } from '../backend/client.ts';
import { ROOT, runCli } from '../helpers/cli.ts';
import { createContent, deleteContent, updateContent } from '../helpers/content-edits.ts';

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
  const result = await runCli(['build', '--endpoint', backend.url, '--out', out(), '--cache-dir', join(root, 'cache'), '--no-report', '--no-search']);
  expect(result.code, result.stdout + result.stderr).toBe(0);
};

const files = async (path: string): Promise<{ html: string; payload: string | null }> => ({
  html: await readFile(join(out(), htmlFileFor(path)), 'utf8'),
  payload: await readFile(join(out(), payloadFileFor(path)), 'utf8').catch(() => null),
});

const render = async (paths: readonly string[]): Promise<{ pages: Map<string, OpenPage>; skipped: Map<string, string> }> => {
  const answer = await renderer.render(paths, 60_000);
  expect(answer).not.toBeNull();
  return { pages: new Map(answer!.pages.map((page) => [page.path, page])), skipped: new Map(answer!.skipped.map(({ path, why }) => [path, why])) };
};

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'site-open-pages-'));
  backend = await startContentServer({ now: () => new Date('2026-06-01T12:00:00Z') });
  token = await loginToken(backend, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
  await build();
  renderer = startOpenPages(ROOT, ['--endpoint', backend.url, '--out', out(), '--cache-dir', join(root, 'cache'), '--no-search', '--quiet'], createLogger('warn'));
  expect(await renderer.ready()).toBe(true);
}, 180_000);

afterAll(async () => {
  renderer?.close();
  await backend?.close();
  await rm(root, { recursive: true, force: true });
});

describe('the open pages rendered first', () => {
  it('are, page for page, the bytes the full build wrote: every page of the sample site, each rendered alone', async () => {
    const latest = JSON.parse(await readFile(join(out(), LATEST_FILE), 'utf8')) as { id: string };
    const meta = JSON.parse(await readFile(join(out(), metaFileFor(latest.id)), 'utf8')) as { prerendered: string[] };
    expect(meta.prerendered.length).toBeGreaterThan(100);
    const { pages, skipped } = await render(meta.prerendered);
    expect([...skipped]).toEqual([]);
    expect(pages.size).toBe(meta.prerendered.length);
    for (const path of meta.prerendered) {
      const page = pages.get(path)!;
      const built = await files(path);
      expect(page.html, path).toBe(built.html);
      expect(page.payload, path).toBe(built.payload);
    }
    // Each page names the media it shows, as copies the dev server can serve before the build has them.
    const home = pages.get('/')!;
    expect(Object.keys(home.media).length).toBeGreaterThan(0);
    for (const [file, copy] of Object.entries(home.media)) expect(await readFile(copy)).toEqual(await readFile(join(out(), file)));
  }, 180_000);

  it('show an edit, an added and a deleted item as the update in place then writes them, and leave what they cannot render to it', async () => {
    const { newsItems } = await gqlData<{ newsItems: { nodes: { id: string; slug: string }[] } }>(backend, '{ newsItems(first: 2) { nodes { id slug } } }');
    const [edited, deleted] = newsItems.nodes as [{ id: string; slug: string }, { id: string; slug: string }];
    await updateContent(backend, token, 'NewsItem', edited.id, { title: 'Shown first, then built' });
    const added = await createContent(backend, token, 'NewsItem', { slug: 'rendered-first', title: 'Added and rendered first', date: '2099-01-01' });
    await deleteContent(backend, token, 'NewsItem', deleted.id);

    const open = ['/', '/news', `/news/${edited.slug}`, '/news/rendered-first', '/events', `/news/${deleted.slug}`, '/no/such/page'];
    const { pages, skipped } = await render(open);
    expect(pages.get(`/news/${edited.slug}`)!.html).toContain('Shown first, then built');
    expect(pages.get('/news')!.html).toContain('Added and rendered first');
    expect(skipped.get(`/news/${deleted.slug}`)).toBe('the backend no longer lists this page');
    expect(skipped.get('/no/such/page')).toBe('no route has this path');
    expect(added.slug).toBe('rendered-first');

    await build();
    for (const [path, page] of pages) {
      const built = await files(path);
      expect(page.html, path).toBe(built.html);
      expect(page.payload, path).toBe(built.payload);
    }
  }, 180_000);
});
