import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Strings kept on disk instead of in memory while a build collects a long list, each read back once, in
 * the order they were put: the news articles' bodies while related news waits for the whole collection
 * (entries.ts). At 100,000 pages they were the largest thing the build held. The file lives in the
 * system's temporary folder (TMPDIR) and is unlinked as soon as it is open, so nothing of it outlives
 * the process, even one that is killed.
 */
export interface Spill {
  /**
   * Keeps `text` on disk; `take` hands the texts back in this order. False when it is not kept: a text
   * with a lone surrogate, which UTF-8 cannot carry, stays with the caller.
   */
  put(text: string): boolean;
  /** The next text put and not yet taken. */
  take(): string;
  /** Closes the file (its space is freed with it). Safe to call more than once. */
  close(): void;
}

/** A spill file, or null when the temporary folder cannot hold one (the caller then keeps the texts in memory). */
export function tryCreateSpill(): Spill | null {
  try {
    return createSpill();
  } catch {
    return null;
  }
}

export function createSpill(): Spill {
  const dir = mkdtempSync(join(tmpdir(), 'site-spill-'));
  let fd: number | null;
  try {
    fd = openSync(join(dir, 'texts'), 'w+', 0o600);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const lengths: number[] = [];
  let pending: string[] = [];
  let pendingChars = 0;
  let written = 0;
  let taken = 0;
  // The bytes read ahead, from the file offset `chunkStart`; `next`: the file offset of the next text.
  let chunk = Buffer.alloc(0);
  let chunkStart = 0;
  let chunkEnd = 0;
  let next = 0;

  const flush = (): void => {
    if (pending.length === 0) return;
    const bytes = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingChars = 0;
    let off = 0;
    try {
      while (off < bytes.length) off += writeSync(open(), bytes, off, bytes.length - off, written + off);
    } catch (error) {
      const code = (error as { code?: string }).code;
      throw new Error(`Could not keep ${lengths.length} texts in a temporary file in ${tmpdir()} (${code ?? (error as Error).message}): free space there, or set TMPDIR to a folder with room.`, { cause: error });
    }
    written += bytes.length;
  };
  const open = (): number => {
    if (fd === null) throw new Error('The spill file is closed.');
    return fd;
  };

  return {
    put(text) {
      open();
      if (SURROGATE.test(text) && LONE_SURROGATE.test(text)) return false;
      pending.push(text);
      lengths.push(Buffer.byteLength(text, 'utf8'));
      pendingChars += text.length;
      if (pendingChars >= CHUNK) flush();
      return true;
    },
    take() {
      open();
      if (taken >= lengths.length) throw new Error('Nothing left in the spill file.');
      const length = lengths[taken++]!;
      if (next + length > chunkStart + chunkEnd) {
        flush();
        const size = Math.min(Math.max(CHUNK, length), written - next);
        if (chunk.length < size) chunk = Buffer.allocUnsafe(Math.max(CHUNK, size));
        chunkStart = next;
        chunkEnd = 0;
        while (chunkEnd < size) {
          const read = readSync(open(), chunk, chunkEnd, size - chunkEnd, chunkStart + chunkEnd);
          if (read === 0) throw new Error('The spill file is shorter than what was put in it.');
          chunkEnd += read;
        }
      }
      const text = chunk.toString('utf8', next - chunkStart, next - chunkStart + length);
      next += length;
      return text;
    },
    close() {
      if (fd === null) return;
      closeSync(fd);
      fd = null;
      pending = [];
    },
  };
}

// --- internal ---

/** Bytes written and read at once. */
const CHUNK = 1 << 20;

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
