import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyContentOverrides, readContentOverrides } from '../../backend/content-overrides.ts';
import { loadSampleContent } from '../../backend/content/sample.ts';
import { createScaledContent } from '../../backend/scale.ts';

describe('content overrides (CONTENT_OVERRIDES_FILE)', () => {
  it('merges site and home field by field and list items by slug, without changing the content it was given', () => {
    const content = loadSampleContent();
    const first = content.news[0]!;
    const changed = applyContentOverrides(content, {
      site: { name: 'Staging' },
      home: { title: 'Hello' },
      news: [{ slug: first.slug, title: 'New title' }],
    });
    expect(changed.site).toEqual({ ...content.site, name: 'Staging' });
    expect(changed.home.title).toBe('Hello');
    expect(changed.news[0]).toEqual({ ...first, title: 'New title' });
    expect(changed.news).toHaveLength(content.news.length);
    expect(content.news[0]!.title).toBe(first.title);
  });

  it('patches scaled content, whose fields are computed, keeping every field it does not replace', () => {
    const content = createScaledContent(200);
    const first = content.news[0]!;
    const changed = applyContentOverrides(content, { news: [{ slug: first.slug, title: 'Edited', updatedAt: '2026-11-20T10:00:00Z' }] })
      .news[0]!;
    expect(changed).toMatchObject({
      title: 'Edited',
      updatedAt: '2026-11-20T10:00:00Z',
      id: first.id,
      body: first.body,
      tags: first.tags,
      summary: first.summary,
    });
    expect(first.title).not.toBe('Edited');
  });

  it('adds list entries with new slugs as they are', () => {
    const content = loadSampleContent();
    const extra = { ...content.news[0]!, id: 'news-extra', slug: 'an-extra-article' };
    expect(applyContentOverrides(content, { news: [extra] }).news.at(-1)).toEqual(extra);
  });

  it('treats a missing file as no overrides, and names the file when it is not usable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'overrides-'));
    expect(readContentOverrides(join(dir, 'missing.json'))).toBeNull();
    expect(readContentOverrides(undefined)).toBeNull();
    await writeFile(join(dir, 'bad.json'), '{ nope');
    expect(() => readContentOverrides(join(dir, 'bad.json'))).toThrow(`CONTENT_OVERRIDES_FILE ${join(dir, 'bad.json')} is not valid JSON`);
    await writeFile(join(dir, 'key.json'), '{"newz": []}');
    expect(() => readContentOverrides(join(dir, 'key.json'))).toThrow("unknown key 'newz'");
    await writeFile(join(dir, 'slug.json'), '{"news": [{"title": "x"}]}');
    expect(() => readContentOverrides(join(dir, 'slug.json'))).toThrow("'news' must be a list of objects, each with a slug");
  });
});
