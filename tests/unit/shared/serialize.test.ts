import { describe, expect, it } from 'vitest';
import { serializeJson } from '../../../runtime/shared/serialize.ts';

describe('serializeJson', () => {
  const hostile = {
    title: '</script><script>alert(1)</script>',
    comment: '<!--<script>',
    amp: 'a & b > c',
    separators: 'line\u2028para\u2029end',
    nested: [{ body: '<img src=x onerror=alert(1)>' }],
  };

  it('never lets a raw <, > or & through', () => {
    const text = serializeJson(hostile);
    expect(text).not.toMatch(/[<>&]/);
    expect(text).not.toMatch(/[\u2028\u2029]/);
  });

  it('round-trips to the same value', () => {
    expect(JSON.parse(serializeJson(hostile))).toEqual(hostile);
  });
});
