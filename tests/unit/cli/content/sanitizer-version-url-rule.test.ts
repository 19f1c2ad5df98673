import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as ContentRulesModule from '../../../../runtime/shared/content-rules.ts';
import type * as RichTextCacheModule from '../../../../cli/content/rich-text-cache.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';

type ContentRules = typeof ContentRulesModule;
const RULES = '../../../../runtime/shared/content-rules.ts';

/** A fresh copy of the sanitiser and its cache, as a new build of the tool would load them. */
async function freshCache(): Promise<typeof RichTextCacheModule> {
  vi.resetModules();
  return import('../../../../cli/content/rich-text-cache.ts');
}

/**
 * The rich-text cache keeps cleaned text only under the sanitiser's version (cli/content/rich-text-cache.ts).
 * That version must change when the URL rule does: a tightened rule must clean again what an older rule let
 * through, never hand back the old cleaned text.
 */
describe('the sanitiser version and the URL rule', () => {
  const dir = tempDirPerTest('sanitizer-version-');
  afterEach(() => {
    vi.doUnmock(RULES);
    vi.resetModules();
  });

  it('cleans again, under a tightened URL rule, text the old rule had let through', async () => {
    const cacheDir = dir();
    const phone = '<p>Call <a href="tel:+4930123">us</a></p>';
    const before = await (await freshCache()).loadRichTextCache(cacheDir);
    expect(before.clean(phone)).toBe(phone);
    await before.save();

    // A new release that no longer allows tel: links, in the rule and everything that applies it.
    vi.doMock(RULES, async (importOriginal) => {
      const rules = await importOriginal<ContentRules>();
      const isSafeUrl = (url: string): boolean => !/^\s*tel:/i.test(url) && rules.isSafeUrl(url);
      const isSafeUrlAttribute = (name: string, value: string): boolean =>
        rules.URL_ATTRIBUTES.has(name) ? !/^\s*tel:/i.test(value) && rules.isSafeUrlAttribute(name, value) : true;
      return { ...rules, isSafeUrl, isSafeUrlAttribute };
    });
    const after = await (await freshCache()).loadRichTextCache(cacheDir);
    expect(after.clean(phone)).toBe('<p>Call <a>us</a></p>');
    expect(after.counts).toEqual({ cleaned: 1, reused: 0 });
  });
});

describe("the sanitiser version and the URL rule's tables", () => {
  const dir = tempDirPerTest('sanitizer-version-');
  afterEach(() => vi.resetModules());

  it('cleans again, once a scheme is taken off the allowed list, text that list had let through', async () => {
    const cacheDir = dir();
    const phone = '<p>Call <a href="tel:+4930123">us</a></p>';
    const before = await (await freshCache()).loadRichTextCache(cacheDir);
    expect(before.clean(phone)).toBe(phone);
    await before.save();

    // A new release whose rule allows no tel: links: the list itself changes, isSafeUrl's text does not.
    vi.resetModules();
    const rules = (await import(RULES)) as ContentRules;
    const schemes = rules.RICH_TEXT_SCHEMES as string[];
    schemes.splice(schemes.indexOf('tel'), 1);
    const { loadRichTextCache } = await import('../../../../cli/content/rich-text-cache.ts');
    const after = await loadRichTextCache(cacheDir);
    expect(after.clean(phone)).toBe('<p>Call <a>us</a></p>');
    expect(after.counts).toEqual({ cleaned: 1, reused: 0 });
  });
});
