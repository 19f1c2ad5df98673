import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { cacheKeyFor } from '../../../../cli/config/cache-key.ts';
import { loadRichTextCache } from '../../../../cli/content/rich-text-cache.ts';
import { sanitizerVersion, sanitizeRichText } from '../../../../cli/content/sanitize.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';

/** Rich text is cleaned once per text and build cache, not once per build (cli/content/rich-text-cache.ts). */
describe('loadRichTextCache', () => {
  const dir = tempDirPerTest('rich-text-');
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = dir();
  });

  const clean = '<p>Already <strong>clean</strong>.</p>';
  const dirty = '<p onclick="steal()">Hi<script>alert(1)</script> <a href="javascript:x()">there</a></p>';
  // What sanitizeRichText makes of each, written out: comparing the cache with the function it caches would
  // pass however both cleaned.
  const dirtyCleaned = '<p>Hi <a>there</a></p>';
  const hashOf = (html: string): string => createHash('sha256').update(html, 'utf16le').digest('base64url');
  const saved = async (): Promise<{ version: string; unchanged: string[]; changed: Record<string, string> }> =>
    JSON.parse(await readFile(join(cacheDir, 'rich-text.json'), 'utf8'));

  it('cleans exactly as sanitizeRichText does, the first time and from the cache', async () => {
    const first = await loadRichTextCache(cacheDir);
    expect([first.clean(clean), first.clean(dirty)]).toEqual([sanitizeRichText(clean), sanitizeRichText(dirty)]);
    expect(first.counts).toEqual({ cleaned: 2, reused: 0 });
    expect([first.clean(clean), first.clean(dirty)]).toEqual([clean, dirtyCleaned]);
    await first.save();

    const second = await loadRichTextCache(cacheDir);
    expect([second.clean(clean), second.clean(dirty)]).toEqual([sanitizeRichText(clean), sanitizeRichText(dirty)]);
    expect(second.counts).toEqual({ cleaned: 0, reused: 2 });
    expect([second.clean(clean), second.clean(dirty)]).toEqual([clean, dirtyCleaned]);
  });

  it('keeps a hash for text that cleans to itself and the cleaned text otherwise, and forgets text no build used', async () => {
    const first = await loadRichTextCache(cacheDir);
    first.clean(clean);
    first.clean(dirty);
    await first.save();
    expect(await saved()).toEqual({
      version: sanitizerVersion(),
      unchanged: [hashOf(clean)],
      changed: { [hashOf(dirty)]: dirtyCleaned },
      mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect((await saved()).version).toMatch(/^[\w-]{16}$/);

    const second = await loadRichTextCache(cacheDir);
    second.clean(dirty);
    await second.save();
    expect(await saved()).toEqual({
      version: sanitizerVersion(),
      unchanged: [],
      changed: { [hashOf(dirty)]: dirtyCleaned },
      mac: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('believes no file but one a build holding the cache key signed', async () => {
    const first = await loadRichTextCache(cacheDir);
    first.clean(dirty);
    await first.save();
    const signed = await saved();
    // A cache writer claims the dirty text cleans to itself: with the signature kept, dropped, or from another key.
    const forged = { version: signed.version, unchanged: [hashOf(dirty)], changed: {} };
    for (const text of [JSON.stringify({ ...forged, mac: (signed as { mac?: string }).mac }), JSON.stringify(forged)]) {
      await writeFile(join(cacheDir, 'rich-text.json'), text);
      const cache = await loadRichTextCache(cacheDir);
      expect(cache.clean(dirty)).toBe(sanitizeRichText(dirty));
      expect(cache.counts).toEqual({ cleaned: 1, reused: 0 });
    }
    const other = await loadRichTextCache(cacheDir, { signer: cacheKeyFor(cacheDir, { SITE_CACHE_KEY: 'x'.repeat(32) }) });
    other.clean(dirty);
    await other.save();
    const cache = await loadRichTextCache(cacheDir);
    cache.clean(dirty);
    expect(cache.counts).toEqual({ cleaned: 1, reused: 0 });
  });

  it('cleans again what another version of the sanitiser cleaned, and starts afresh from a damaged file', async () => {
    // A cache written with other rules claims the dirty text is clean: it must not be believed.
    await writeFile(join(cacheDir, 'rich-text.json'), JSON.stringify({ version: 'older-rules', unchanged: [hashOf(dirty)], changed: {} }));
    const outdated = await loadRichTextCache(cacheDir);
    expect(outdated.clean(dirty)).toBe(dirtyCleaned);
    expect(outdated.clean(dirty)).not.toContain('script');
    expect(outdated.counts.cleaned).toBe(1);

    // Entries of the right version but the wrong shape are not believed either, and break nothing.
    await writeFile(
      join(cacheDir, 'rich-text.json'),
      JSON.stringify({
        version: sanitizerVersion(),
        unchanged: [42, null],
        changed: { [hashOf(dirty)]: null, [hashOf(clean)]: { html: clean } },
      }),
    );
    const altered = await loadRichTextCache(cacheDir);
    expect([altered.clean(dirty), altered.clean(clean)]).toEqual([sanitizeRichText(dirty), sanitizeRichText(clean)]);
    expect(altered.counts).toEqual({ cleaned: 2, reused: 0 });
    await writeFile(join(cacheDir, 'rich-text.json'), JSON.stringify({ version: sanitizerVersion(), unchanged: 'x', changed: null }));
    expect((await loadRichTextCache(cacheDir)).clean(dirty)).toBe(sanitizeRichText(dirty));

    await writeFile(join(cacheDir, 'rich-text.json'), '{"version":');
    const damaged = await loadRichTextCache(cacheDir);
    expect(damaged.clean(dirty)).toBe(sanitizeRichText(dirty));
    await damaged.save();
    expect((await saved()).version).toBe(sanitizerVersion());
  });

  it('cleans a text repeated within one build once', async () => {
    const cache = await loadRichTextCache(cacheDir);
    for (let i = 0; i < 3; i++) expect([cache.clean(clean), cache.clean(dirty)]).toEqual([clean, sanitizeRichText(dirty)]);
    expect(cache.counts).toEqual({ cleaned: 2, reused: 4 });
  });

  it('keeps changed text only up to its bound, counting what the previous build kept', async () => {
    const dirtier = `${dirty}<p>more</p>`;
    const first = await loadRichTextCache(cacheDir);
    first.clean(dirty);
    await first.save();
    // Room for one cleaned text: the one the previous build kept takes it, so the new one is not kept.
    const second = await loadRichTextCache(cacheDir, { maxChangedChars: sanitizeRichText(dirtier).length });
    expect([second.clean(dirty), second.clean(dirtier)]).toEqual([sanitizeRichText(dirty), sanitizeRichText(dirtier)]);
    await second.save();
    expect(Object.keys((await saved()).changed)).toEqual([hashOf(dirty)]);
  });
});
