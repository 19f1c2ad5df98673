import { describe, expect, it } from 'vitest';
import type { BuildState } from '../../../../../cli/build/incremental/build-state.ts';
import { filesToRemove } from '../../../../../cli/build/incremental/incremental.ts';

const previous = (pages: string[], outputs: string[], media: string[]): BuildState =>
  ({
    pages: new Map(pages.map((p) => [p, {}])),
    outputs: new Map(outputs.map((o) => [o, 'hash'])),
    media: new Set(media),
  }) as unknown as BuildState;

describe('the files an update in place removes', () => {
  it("are the previous build's pages, outputs and media this build no longer has", () => {
    const before = previous(['/', '/a', '/gone'], ['feeds/news.xml', 'feeds/old.xml'], ['/media/x.jpg', '/media/y.jpg']);
    expect(filesToRemove(before, ['/', '/a'], new Map([['feeds/news.xml', 'h']]), new Set(['/media/y.jpg']))).toEqual([
      'gone/index.html',
      'gone/_payload.json',
      'feeds/old.xml',
      'media/x.jpg',
    ]);
  });

  it('never include a file this build has, however the previous records spell it', () => {
    // An output named like a page's file, a medium under an encoded slash or in another Unicode form, a page in another case.
    const before = previous(['/A', '/news'], ['news/index.html', 'NEWS/_payload.json'], ['/media/a%2Fb.jpg', '/media/ſ.png']);
    expect(filesToRemove(before, ['/a', '/news'], new Map(), new Set(['/media/a/b.jpg', '/media/s.png']))).toEqual([]);
  });
});
