import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Strings kept on disk instead of in memory while a build collects a long list, each read back once, in
 * the order they were put: the news articles' bodies while related news waits for the whole collection
 * (entries.ts). At 100,000 pages they were the largest thing the build held. The file lives in the
 * system's temporary folder (TMPDIR) and is unlinked as soon as it is open, so nothing of it outlives
 * the process, even one that is killed. When the disk fills, the texts put from then on wait in memory.
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
  let fd: number | null = null;
  try {
    fd = openSync(join(dir, 'texts'), 'w+', 0o600);
    rmSync(dir, { recursive: true, force: true });
  } catch (error) {
    if (fd !== null) closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const lengths: number[] = [];
  let pending: string[] = [];
  let pendingChars = 0;
  // The texts' bytes, in order: the first `onDisk` in the file, the rest in `memory` once the file could
  // take no more (a full disk): the texts put after that wait in memory, as they would without a spill.
  let onDisk = 0;
  let memory: Buffer[] | null = null;
  let inMemory = 0;
  let memoryJoined: Buffer | null = null;
  let taken = 0;
  // The bytes read ahead, from the offset `chunkStart`; `next`: the offset of the next text.
  let chunk = Buffer.alloc(0);
  let chunkStart = 0;
  let chunkEnd = 0;
  let next = 0;

  const open = (): number => {
    if (fd === null) throw new Error('The spill file is closed.');
    return fd;
  };
  const flush = (): void => {
    if (pending.length === 0) return;
    const bytes = Buffer.from(pending.join(''), 'utf8');
    pending = [];
    pendingChars = 0;
    let off = 0;
    if (memory === null) {
      try {
        while (off < bytes.length) off += writeSync(open(), bytes, off, bytes.length - off, onDisk + off);
      } catch {
        memory = [];
      }
      onDisk += off;
    }
    if (off < bytes.length) {
      memory!.push(bytes.subarray(off));
      inMemory += bytes.length - off;
      memoryJoined = null;
    }
  };
  /** Fills `chunk` with the `length` bytes from `at`, from the file and then from memory. */
  const read = (at: number, length: number): void => {
    let done = 0;
    while (done < length && at + done < onDisk) {
      const got = readSync(open(), chunk, done, Math.min(length - done, onDisk - (at + done)), at + done);
      if (got === 0) throw new Error('The spill file is shorter than what was put in it.');
      done += got;
    }
    if (done < length) {
      memoryJoined ??= Buffer.concat(memory ?? []);
      memoryJoined.copy(chunk, done, at + done - onDisk, at + length - onDisk);
    }
  };

  return {
    put(text) {
      open();
      if (SURROGATE.test(text) && LONE_SURROGATE.test(text)) return false;
      // A very long text goes on its own rather than joined to others into one string past V8's limit.
      if (pendingChars + text.length > CHUNK) flush();
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
        const size = Math.min(Math.max(CHUNK, length), onDisk + inMemory - next);
        if (chunk.length < size) chunk = Buffer.allocUnsafe(Math.max(CHUNK, size));
        chunkStart = next;
        read(next, size);
        chunkEnd = size;
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
      memory = null;
      memoryJoined = null;
    },
  };
}

// --- internal ---

/** Bytes written and read at once. */
const CHUNK = 1 << 20;

const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
