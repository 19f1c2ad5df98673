import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { createSpill, tryCreateSpill } from '../../../site/build/spill.ts';

/** The news bodies' spill file (site/build/spill.ts): what goes in comes back, in order, and nothing stays behind. */
describe('createSpill', () => {
  const spillDirs = (): string[] => readdirSync(tmpdir()).filter((name) => name.startsWith('site-spill-'));

  it('hands back every text in the order it was put, across chunk boundaries, with any characters', () => {
    const before = spillDirs().length;
    const spill = createSpill();
    const texts: string[] = [];
    for (let i = 0; i < 3000; i++) {
      // Sizes around and beyond the 1 MiB chunk, empty texts, and characters of 1 to 4 bytes in UTF-8.
      const text = i % 500 === 7 ? 'x'.repeat((1 << 20) + 3) : i % 97 === 0 ? '' : `${i}: café ✓ 𝄞 `.repeat(i % 40);
      texts.push(text);
      spill.put(text);
      // Takes interleaved with puts, as a list is handed on while it is still read.
      if (i % 3 === 0) expect(spill.take()).toBe(texts[Math.floor(i / 3)]);
    }
    for (let i = 1000; i < texts.length; i++) expect(spill.take()).toBe(texts[i]);
    expect(() => spill.take()).toThrow(/Nothing left/);
    spill.close();
    spill.close();
    // The file was unlinked as soon as it was open: no folder of it is left in the temporary folder.
    expect(spillDirs().length).toBe(before);
  });

  it('is not made when the temporary folder cannot hold it, and the caller is told so by a null', () => {
    const before = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/site-spill-test';
    try {
      expect(tryCreateSpill()).toBeNull();
      expect(() => createSpill()).toThrow(/ENOENT/);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
    }
  });

  it('keeps no text with a lone surrogate (UTF-8 cannot carry it), and hands back the others in order', () => {
    const spill = createSpill();
    expect(spill.put('a \ud83c\udfb5 pair')).toBe(true);
    expect(spill.put('lone \ud800 high')).toBe(false);
    expect(spill.put('lone \udc00 low')).toBe(false);
    expect(spill.put('after')).toBe(true);
    expect(spill.take()).toBe('a \ud83c\udfb5 pair');
    expect(spill.take()).toBe('after');
    spill.close();
  });

  it('keeps the texts in memory from the point where the disk takes no more, and hands every one back in order', () => {
    // A process whose files may not grow past 2 MiB (ulimit -f; Node then gets EFBIG instead of a signal):
    // the texts past it wait in memory, and those around the point where the disk filled come back whole.
    const script = `
      import { createSpill } from ${JSON.stringify(new URL('../../../site/build/spill.ts', import.meta.url).href)};
      const spill = createSpill();
      const texts = Array.from({ length: 400 }, (_, i) => String(i).padStart(4, '0') + ' ' + 'é✓'.repeat(2000 + i));
      for (const text of texts) if (!spill.put(text)) throw new Error('not kept');
      let same = 0;
      for (const text of texts) if (spill.take() === text) same++;
      spill.close();
      console.log(JSON.stringify({ same, bytes: texts.reduce((n, t) => n + Buffer.byteLength(t), 0) }));`;
    const out = execFileSync(
      'bash',
      ['-c', 'ulimit -f 2048; exec "$0" --import tsx --input-type=module -e "$1"', process.execPath, script],
      { cwd: new URL('../../..', import.meta.url), encoding: 'utf8' },
    );
    const { same, bytes } = JSON.parse(out) as { same: number; bytes: number };
    expect(bytes).toBeGreaterThan(4 * 2 ** 20);
    expect(same).toBe(400);
  });

  it('refuses to be used once closed', () => {
    const spill = createSpill();
    spill.put('a'.repeat(10));
    spill.close();
    expect(() => spill.take()).toThrow(/closed/);
  });
});
