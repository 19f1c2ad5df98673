import { mkdir, mkdtemp, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildResult } from '../../cli/build/build.ts';
import { isBuildError, type BuildError } from '../../cli/errors/errors.ts';
import type { BootData, Payload } from '../../runtime/shared/contract.ts';
import { buildInProcess } from '../helpers/build-in-process.ts';
import { startFaultServer, type FaultServer } from '../helpers/fault-server.ts';
import { rejectionOf } from '../helpers/rejection.ts';
import { listFiles } from '../helpers/tree.ts';

/**
 * Hostile content from the backend, injected into its real answers: slugs that try to leave the output
 * folder or collide, and titles and bodies that try to break out of the HTML they are written into.
 */

type Node = Record<string, unknown> & { id: string; slug: string };
let server: FaultServer;

beforeAll(async () => {
  server = await startFaultServer();
});

afterAll(async () => {
  await server?.close();
});

/** An output folder three levels below its own temporary root, so `../../..` still lands inside the root. */
async function deepOut(): Promise<{ root: string; out: string }> {
  const root = await mkdtemp(join(tmpdir(), 'site-hostile-'));
  await mkdir(join(root, 'a/b/c'), { recursive: true });
  return { root, out: join(root, 'a/b/c/site') };
}

function runBuild(outDir: string): Promise<BuildResult> {
  return buildInProcess({ endpoint: server.url, outDir, timeoutMs: 5000, retries: 0 });
}

function buildError(promise: Promise<unknown>): Promise<BuildError> {
  return rejectionOf(promise, isBuildError);
}

/** Edits the nodes of the news list the article pages are built from. */
function editNews(edit: (nodes: Node[]) => void): void {
  server.setRules([
    { operation: 'NewsArticles', fault: { kind: 'edit', edit: (data) => edit((data.newsItems as { nodes: Node[] }).nodes) } },
  ]);
}

describe('slugs from the backend', () => {
  const UNUSABLE: [string, string, RegExp][] = [
    ['a parent-folder slug', '..', /contains \.\./],
    ['a traversal slug', '../../../escaped-by-slug', /slash/],
    ['a slug with a slash', 'news/escaped', /slash/],
    ['a percent-encoded traversal', '..%2F..%2Fescaped', /contains %/],
    ['a slug with a backslash', '..\\..\\escaped', /backslash/],
    ['a slug with a control character', 'bad\u0000slug', /control characters/],
    ['a slug with a newline', 'two\nlines', /control characters/],
    ['a Unicode look-alike (Cyrillic е)', 'n\u0435ws-item', /non-ASCII/],
    ['a full-width look-alike', '\uff4e\uff45\uff57\uff53', /non-ASCII/],
    ['an empty slug', '', /it is empty/],
    ['a 300-character slug', 'x'.repeat(300), /300 characters long/],
    ['a slug differing from another only by case', 'Case-Only', /capital letters/],
  ];

  it.each(UNUSABLE)(
    '%s fails the build naming the item id, the slug and the fix, and writes nothing anywhere',
    async (_name, slug, problem) => {
      let id = '';
      editNews((nodes) => {
        id = nodes[0]!.id;
        if (slug === 'Case-Only') nodes[1]!.slug = 'case-only';
        nodes[0]!.slug = slug;
      });
      const { root, out } = await deepOut();

      const error = await buildError(runBuild(out));

      expect(error.code).toBe('UnsafeSlug');
      expect(error.message).toContain(`The item ${id} has the slug ${JSON.stringify(slug).slice(0, 40)}`);
      expect(error.message).toContain('route news-article (/news/:slug)');
      expect(error.message).toMatch(problem);
      expect(error.hint).toContain('lowercase letters, digits and hyphens');
      // Nothing was written: not the output, not beside it, not above it.
      expect(await listFiles(root)).toEqual([]);
      expect(await readdir(join(root, 'a/b/c'))).toEqual([]);
    },
    60_000,
  );

  it('two items with the same slug fail the build naming the file they would both write and both items', async () => {
    let ids: string[] = [];
    editNews((nodes) => {
      nodes[1]!.slug = nodes[0]!.slug;
      ids = [nodes[0]!.id, nodes[1]!.id];
    });
    const { root, out } = await deepOut();
    const error = await buildError(runBuild(out));
    expect(error.code).toBe('DuplicateOutput');
    expect(error.message).toMatch(
      /^Two pages write to news\/[a-z0-9-]+\/index\.html: '\/news\/[a-z0-9-]+' \(item [^)]+\) and '\/news\/[a-z0-9-]+' \(item [^)]+\)\.$/,
    );
    for (const id of ids) expect(error.message).toContain(`(item ${id})`);
    expect(await listFiles(root)).toEqual([]);
  }, 60_000);
});

describe('titles and bodies from the backend', () => {
  const TITLE = '</script><script>alert("title")</script><!--<script> line\u2028separator\u2029 & "quoted" \'single\'';
  const BODY = [
    '<p>Before</p>',
    '</script><script>alert("body")</script>',
    '<!--<script>alert("comment")</script>-->',
    '<p>line\u2028separator</p>',
    '<a href="javascript:alert(1)">js link</a>',
    '<a href="JaVaScRiPt&#58;alert(2)">encoded js link</a>',
    '<a href="/\\evil.example/">backslash link</a>',
    '<img src="data:image/png;base64,AAAA" onerror="alert(3)" alt="x">',
    '<p onclick="alert(4)" onmouseover="alert(5)">handlers</p>',
    '<iframe src="https://evil.example/"></iframe>',
    '<svg><script>alert(6)</script></svg>',
    '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
    '<p id="__BOOT__">clobber</p>',
    '<p id="section-1">kept anchor</p>',
    '<a href="https://example.org/">kept link</a>',
  ].join('');
  // About 1.5 MB of ordinary paragraphs after the hostile part.
  const FILLER = '<p>Ordinary paragraph of a very long article. </p>'.repeat(30_000);
  let out: string;
  let slug = '';
  let eventPath = '';

  beforeAll(async () => {
    server.setRules([
      {
        operation: 'NewsArticles',
        fault: {
          kind: 'edit',
          edit: (data) => {
            const node = (data.newsItems as { nodes: Node[] }).nodes[0]!;
            slug = node.slug;
            Object.assign(node, { title: TITLE, summary: TITLE, body: BODY + FILLER });
          },
        },
      },
      {
        operation: 'EventEntries',
        fault: {
          kind: 'edit',
          edit: (data) => {
            const node = (data.events as { nodes: (Node & { category: { slug: string } })[] }).nodes[0]!;
            eventPath = `/events/${node.category.slug}/${node.slug}`;
            Object.assign(node, { title: TITLE, registrationUrl: 'javascript:alert("registration")' });
          },
        },
      },
    ]);
    out = (await deepOut()).out;
    await runBuild(out);
  }, 120_000);

  async function textFiles(): Promise<[string, string][]> {
    const files = (await listFiles(out)).filter((f) => /\.(html|json|xml|ics|txt)$/.test(f));
    return Promise.all(files.map(async (f) => [f, await readFile(join(out, f), 'utf8')] as [string, string]));
  }

  it('never lets content open a script element or leave a JSON block, in any page', async () => {
    const allowed =
      /^<script (?:type="application\/json" id="__BOOT__"|type="application\/ld\+json"|type="module" src="\/_assets\/[\w.-]+\.js")>$/;
    let pages = 0;
    for (const [file, text] of await textFiles()) {
      if (!file.endsWith('.html')) continue;
      pages++;
      const opens = text.match(/<script\b[^>]*>/gi) ?? [];
      for (const tag of opens) expect(tag, file).toMatch(allowed);
      expect(text.match(/<\/script/gi)?.length ?? 0, file).toBe(opens.length);
      for (const [, json] of text.matchAll(/<script type="application\/(?:json|ld\+json)"[^>]*>([\s\S]*?)<\/script>/g)) {
        expect(json, file).not.toMatch(/[<>\u2028\u2029]/);
        expect(() => JSON.parse(json!) as unknown, file).not.toThrow();
      }
    }
    expect(pages).toBeGreaterThan(100);
  });

  it('keeps the hostile title exactly, as data, in the boot data and the payload', async () => {
    const html = await readFile(join(out, `news/${slug}/index.html`), 'utf8');
    const boot = JSON.parse(/<script type="application\/json" id="__BOOT__">([\s\S]*?)<\/script>/.exec(html)![1]!) as BootData;
    expect((boot.data as { newsItem: { title: string } }).newsItem.title).toBe(TITLE);
    const payloadText = await readFile(join(out, `news/${slug}/_payload.json`), 'utf8');
    expect(payloadText).not.toMatch(/[<>\u2028\u2029]/);
    expect(((JSON.parse(payloadText) as Payload).data as { newsItem: { title: string } }).newsItem.title).toBe(TITLE);
    // React escaped it as text in the markup and the head.
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(&quot;title&quot;)');
  });

  it('cleans the body with the allowlist: no scripts, handlers, frames, javascript: URLs or clobbering ids', async () => {
    const payload = JSON.parse(await readFile(join(out, `news/${slug}/_payload.json`), 'utf8')) as Payload;
    const body = (payload.data as { newsItem: { body: string } }).newsItem.body;
    expect(body).not.toMatch(/<script|<iframe|<svg|<meta|onerror|onclick|onmouseover|javascript:|evil\.example|__BOOT__/i);
    expect(body).toContain('<p id="c-section-1">kept anchor</p>');
    expect(body).toContain('<a href="https://example.org/">kept link</a>');
    expect(body).toContain('<a>js link</a>');
    const html = await readFile(join(out, `news/${slug}/index.html`), 'utf8');
    expect(html.match(/id="__BOOT__"/g)).toHaveLength(1);
    expect(html).not.toMatch(/<iframe|onerror=|onclick=|javascript:/i);
  });

  it('blocks a javascript: URL in a plain URL field', async () => {
    const html = await readFile(join(out, `${eventPath.slice(1)}/index.html`), 'utf8');
    expect(html).toContain('&lt;/script&gt;');
    expect(html).not.toMatch(/javascript:/i);
    for (const [file, text] of await textFiles()) expect(text, file).not.toMatch(/javascript:/i);
  });

  it('builds a page with a body of 1.5 MB', async () => {
    const payload = await readFile(join(out, `news/${slug}/_payload.json`), 'utf8');
    expect(payload.length).toBeGreaterThan(1_400_000);
    expect(payload.split('Ordinary paragraph').length - 1).toBe(30_000);
  });
});
