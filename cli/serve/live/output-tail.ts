import { StringDecoder } from 'node:string_decoder';

/**
 * The output of a process `site live` runs (the build that renders every page), line by line as it
 * comes, and the last of it kept for an error message: at most `maxChars` characters, however much the
 * process writes. Each stream gets a reader of its own, so a line split across chunks, or written in
 * parts on stdout and stderr at once, stays whole; a line longer than `maxChars` is passed on in pieces.
 */
export interface OutputTail {
  /** A reader for one stream: `write` each chunk, `end` once the stream closed (the last line without a newline). */
  reader(): { write(chunk: Buffer): void; end(): void };
  /** The last lines, together at most `maxChars` characters; blank lines left out. */
  lines(): string[];
}

export function createOutputTail(maxChars: number, onLine: (line: string) => void): OutputTail {
  const kept: string[] = [];
  let size = 0;
  const take = (line: string): void => {
    if (!line.trim()) return;
    onLine(line);
    kept.push(line);
    size += line.length;
    while (size > maxChars && kept.length > 1) size -= kept.shift()!.length;
  };
  return {
    reader() {
      const decoder = new StringDecoder('utf8');
      let carry = '';
      const split = (text: string): void => {
        const parts = (carry + text).split('\n');
        carry = parts.pop()!;
        for (const part of parts) take(part.replace(/\r$/, ''));
        while (carry.length > maxChars) {
          take(carry.slice(0, maxChars));
          carry = carry.slice(maxChars);
        }
      };
      return {
        write: (chunk) => split(decoder.write(chunk)),
        end() {
          split(decoder.end());
          take(carry);
          carry = '';
        },
      };
    },
    lines: () => [...kept],
  };
}
