import { describe, expect, it } from 'vitest';
import { PackedNumbers, PackedStrings } from '../../../../../cli/build/incremental/packed-strings.ts';

describe('PackedStrings', () => {
  it('gives back every row as it was pushed, whatever the string', () => {
    const values: (string | null | undefined)[] = [
      'News — Institute',
      '',
      null,
      undefined,
      '/news/a-long-path/with-segments',
      'café 🎉 ü',
      'lone \ud800 surrogate',
      'trailing \udc00',
      '\u2028 line separator',
      'x'.repeat(100_000),
      'ascii only',
    ];
    const column = new PackedStrings();
    for (const value of values) column.push(value);
    expect(column.length).toBe(values.length);
    values.forEach((value, row) => expect(column.at(row)).toBe(value));
  });

  it('gives back an empty string pushed first', () => {
    const column = new PackedStrings();
    column.push('');
    column.push('after');
    expect([column.at(0), column.at(1)]).toEqual(['', 'after']);
  });

  it('keeps rows across many blocks and growths', () => {
    const column = new PackedStrings();
    const text = (i: number): string => `/route-${i % 7}/item-${i}-${'é'.repeat(i % 50)}`;
    for (let i = 0; i < 60_000; i++) column.push(text(i));
    for (let i = 0; i < 60_000; i += 997) expect(column.at(i)).toBe(text(i));
    expect(column.at(59_999)).toBe(text(59_999));
  });

  it('shares the first distinct values, and packs the rest', () => {
    const column = new PackedStrings(2);
    const rows = ['\nmain\nnav\n', '\nmain\n', '\nmain\nnav\n', '\nother\n', '\nmain\n', '\nthird\n'];
    for (const row of rows) column.push(row);
    rows.forEach((row, i) => expect(column.at(i)).toBe(row));
  });

  it('refuses rows it does not have, and text() a row without a string', () => {
    const column = new PackedStrings();
    column.push(null);
    expect(() => column.at(1)).toThrow(RangeError);
    expect(() => column.at(-1)).toThrow(RangeError);
    expect(() => column.text(0)).toThrow(TypeError);
  });
});

describe('PackedNumbers', () => {
  it('gives back every number, past its first growth', () => {
    const column = new PackedNumbers();
    for (let i = 0; i < 5000; i++) column.push(i % 3 === 0 ? Number.NaN : i * 1.5);
    expect(column.length).toBe(5000);
    expect(column.at(3)).toBeNaN();
    expect(column.at(4999)).toBe(4999 * 1.5);
    expect(() => column.at(5000)).toThrow(RangeError);
  });

  it('as uint32, keeps counts and refuses anything else', () => {
    const column = new PackedNumbers('uint32');
    for (let i = 0; i < 3000; i++) column.push(i * 1000);
    column.push(0xffffffff);
    expect(column.at(2999)).toBe(2_999_000);
    expect(column.at(3000)).toBe(0xffffffff);
    for (const bad of [-1, 1.5, 2 ** 32, Number.NaN]) expect(() => column.push(bad)).toThrow(RangeError);
    expect(column.length).toBe(3001);
  });
});
