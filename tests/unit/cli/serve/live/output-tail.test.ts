import { describe, expect, it } from 'vitest';
import { createOutputTail } from '../../../../../cli/serve/live/output-tail.ts';

describe("the tail of a child build's output", () => {
  it('keeps at most its limit of the last lines, however much is written, passing each line on whole as it comes', () => {
    const passed: string[] = [];
    const tail = createOutputTail(64 * 1024, (line) => passed.push(line));
    const out = tail.reader();
    // 10 MB of lines in chunks of 1,000 bytes: lines cut at every chunk's edge.
    const text = Array.from({ length: 500_000 }, (_, i) => `warning ${i}: x`).join('\n');
    const bytes = Buffer.from(`${text}\nthe last words`);
    for (let at = 0; at < bytes.length; at += 1000) out.write(bytes.subarray(at, at + 1000));
    out.end();
    expect(passed).toHaveLength(500_001);
    expect(passed.every((line, i) => line === (i < 500_000 ? `warning ${i}: x` : 'the last words'))).toBe(true);
    const kept = tail.lines();
    expect(kept.join('').length).toBeLessThanOrEqual(64 * 1024);
    expect(kept.length).toBeGreaterThan(1000);
    expect(kept.at(-1)).toBe('the last words');
    expect(kept.at(-2)).toBe('warning 499999: x');
  });

  it('keeps a character split between chunks, and lines of stdout and stderr apart', () => {
    const passed: string[] = [];
    const tail = createOutputTail(1024, (line) => passed.push(line));
    const [stdout, stderr] = [tail.reader(), tail.reader()];
    const word = Buffer.from('Zürich\n');
    stdout.write(word.subarray(0, 2));
    stderr.write(Buffer.from('Error: half'));
    stdout.write(word.subarray(2));
    stderr.write(Buffer.from(' of a line\r\n'));
    stdout.end();
    stderr.end();
    expect(passed).toEqual(['Zürich', 'Error: half of a line']);
  });

  it('passes a line longer than its limit on in pieces, keeping no more than the limit', () => {
    const passed: string[] = [];
    const tail = createOutputTail(100, (line) => passed.push(line));
    const out = tail.reader();
    out.write(Buffer.from('y'.repeat(1050)));
    out.end();
    expect(passed.map((p) => p.length)).toEqual([100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 50]);
    expect(tail.lines().join('').length).toBeLessThanOrEqual(100);
  });
});
