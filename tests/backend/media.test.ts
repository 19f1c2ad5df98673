import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_EDITOR, startContentServer, type ContentServer } from '../../backend/server.ts';
import { fetchAll, gqlData, loginToken } from './client.ts';

const IMAGE = 'url alt width height';
const DOCUMENT = 'url mimeType size';
const LISTS: [string, string][] = [
  ['newsItems', `slug body image { ${IMAGE} }`],
  ['events', `slug body image { ${IMAGE} }`],
  ['publications', `slug file { ${DOCUMENT} } authors { photo { ${IMAGE} } }`],
  ['courses', `slug description teachers { photo { ${IMAGE} } }`],
  ['researchProjects', `slug body image { ${IMAGE} } people { photo { ${IMAGE} } } publications { file { ${DOCUMENT} } }`],
  ['documents', `slug ${DOCUMENT}`],
  ['people', `slug bio photo { ${IMAGE} }`],
  ['podcastEpisodes', 'slug audioUrl'],
];
const TYPES: Record<string, string> = { svg: 'image/svg+xml', pdf: 'application/pdf', wav: 'audio/wav' };

/** Every `/media/...` string in a JSON value, including links inside HTML bodies. */
function mediaUrls(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string') {
    for (const match of value.matchAll(/\/media\/[^\s"'<>)]+/g)) found.add(match[0]);
  } else if (Array.isArray(value)) {
    for (const item of value) mediaUrls(item, found);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) mediaUrls(item, found);
  }
  return found;
}

describe('media files', () => {
  let server: ContentServer;
  beforeAll(async () => {
    server = await startContentServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('serves every /media/ URL referenced anywhere in the content with the right type and length', async () => {
    const token = await loginToken(server, DEFAULT_EDITOR.email, DEFAULT_EDITOR.password);
    const results: unknown[] = [];
    for (const [field, selection] of LISTS) results.push((await fetchAll(server, field, selection, { token, first: 500 })).nodes);
    results.push(await gqlData(server, '{ home { featuredNews { image { url } } researchHighlights { image { url } } } }', {}, token));
    for (const slug of ['about', 'people', 'contact', 'podcast', 'about-large', 'artistic-research']) {
      results.push(await gqlData(server, 'query($s: String!) { page(slug: $s) { body sections { body } } }', { s: slug }));
    }
    const urls = [...mediaUrls(results)].sort();
    expect(urls.length).toBeGreaterThan(100);
    for (const kind of ['svg', 'pdf', 'wav'])
      expect(
        urls.some((u) => u.endsWith(`.${kind}`)),
        kind,
      ).toBe(true);

    // Drafts' media are the editor's (hardening.test.ts): fetched here with the token that listed them.
    for (const url of urls) {
      const response = await fetch(`${server.origin}${url}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status, url).toBe(200);
      const body = Buffer.from(await response.arrayBuffer());
      const extension = url.split('.').pop() ?? '';
      expect(response.headers.get('content-type'), url).toBe(TYPES[extension]);
      expect(Number(response.headers.get('content-length')), url).toBe(body.length);
      if (extension === 'pdf') expect(body.subarray(0, 5).toString('latin1'), url).toBe('%PDF-');
      if (extension === 'wav')
        expect(body.subarray(0, 4).toString('latin1') + body.subarray(8, 12).toString('latin1'), url).toBe('RIFFWAVE');
      if (extension === 'svg') expect(body.toString('utf8'), url).toMatch(/^<svg [^>]*width="\d+" height="\d+"/);
    }
  });

  it('states image sizes that match the SVG files', async () => {
    const data = await gqlData<{
      newsItems: { nodes: { image: { url: string; width: number; height: number } | null }[] };
      people: { nodes: { photo: { url: string; width: number; height: number } | null }[] };
    }>(
      server,
      '{ newsItems(first: 3) { nodes { image { url width height } } } people(first: 3) { nodes { photo { url width height } } } }',
    );
    const images = [...data.newsItems.nodes.map((n) => n.image), ...data.people.nodes.map((p) => p.photo)].filter((i) => i !== null);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      const svg = await (await fetch(`${server.origin}${image.url}`)).text();
      expect(svg).toContain(`width="${image.width}" height="${image.height}"`);
    }
    expect(images[0]).toMatchObject({ width: 1200, height: 675 });
  });

  it('states document sizes equal to the served bytes, and PDFs have a valid xref table', async () => {
    const { nodes } = await fetchAll<{ url: string; size: number; mimeType: string }>(server, 'documents', 'url size mimeType', {
      first: 500,
    });
    expect(nodes.length).toBeGreaterThanOrEqual(30);
    for (const doc of nodes) {
      const bytes = Buffer.from(await (await fetch(`${server.origin}${doc.url}`)).arrayBuffer());
      expect(bytes.length, doc.url).toBe(doc.size);
      expect(doc.mimeType).toBe('application/pdf');
      const text = bytes.toString('latin1');
      const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
      expect(text.slice(startxref, startxref + 4), doc.url).toBe('xref');
      const offsets = [...text.slice(startxref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
      offsets.forEach((offset, i) => expect(text.slice(offset).startsWith(`${i + 1} 0 obj`), doc.url).toBe(true));
    }
  });

  it('answers 404 for unknown media paths', async () => {
    for (const path of ['/media/news/no-such-image.svg', '/media/../site/schema.graphql', '/media/']) {
      const response = await fetch(`${server.origin}${path}`);
      expect(response.status, path).toBe(404);
      await response.arrayBuffer();
    }
  });
});
