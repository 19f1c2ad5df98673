import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeJson } from '../../../runtime/shared/serialize.ts';

/** Strings that reach the tokenizer tricks of inline data more often than uniform random text would. */
const hostileString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 64 }),
  fc
    .array(
      fc.constantFrom(
        '<',
        '>',
        '&',
        '/',
        '!',
        '-',
        'script',
        '</script',
        '<!--',
        '-->',
        '\u2028',
        '\u2029',
        '\\',
        '"',
        "'",
        'a',
        ' ',
        '\u0000',
        '\ud800',
        '\udfff',
      ),
      { maxLength: 24 },
    )
    .map((parts) => parts.join('')),
);

const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('value'), { maxLength: 5 }),
  object: fc.dictionary(hostileString, tie('value'), { maxKeys: 5 }),
})).value;

describe('serializeJson on random input', () => {
  it('round-trips every string to the same value through JSON.parse', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        expect(JSON.parse(serializeJson(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });

  it('never emits a raw <, >, &, U+2028 or U+2029, whatever the strings', () => {
    fc.assert(
      fc.property(hostileString, (text) => {
        expect(serializeJson(text)).not.toMatch(/[<>&\u2028\u2029]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips nested values, keys included, without a raw <', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        const text = serializeJson(value);
        expect(text).not.toContain('<');
        // JSON has no -0: what comes back is what JSON.stringify would give.
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 1000 },
    );
  });
});
