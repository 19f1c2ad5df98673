import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import type { PageRecord } from './query.ts';

/**
 * Pages held ahead while the client bundles (content/page-stream.ts), written to a scratch file: a cold
 * build crawls the whole sample site while rollup builds its module graph in the bundle thread, and
 * held in memory, as parsed data beside a JSON string (two bytes a character for most pages), those
 * pages were 120 MiB of the build's peak at 10,803 pages; as UTF-8 bytes, still 77 MiB. On disk they
 * cost a write and a read from the page cache each, on the main thread, and no memory of the build's own.
 */
export interface PageSpill {
  /** Writes the page's JSON to the file: what is held is the page without its data and JSON, and where they are. */
  pack(record: PageRecord): PackedPage;
  /** The page as it was packed: serializeJson's output is JSON, so its data parses back from it. */
  unpack(packed: PackedPage): PageRecord;
  /** Closes and deletes the file; packing again starts a new one. */
  remove(): void;
}

export interface PackedPage {
  record: PageRecord;
  offset: number;
  length: number;
}

/** A spill to `file`, created with the first page packed (none: no file). */
export function createPageSpill(file: string): PageSpill {
  let fd: number | null = null;
  let end = 0;
  return {
    pack(record) {
      fd ??= openSync(file, 'w+', 0o600);
      const bytes = Buffer.from(record.json);
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done, end + done);
      const packed = { record: { ...record, data: undefined, json: '' }, offset: end, length: bytes.length };
      end += bytes.length;
      return packed;
    },
    unpack({ record, offset, length }) {
      const bytes = Buffer.allocUnsafe(length);
      for (let done = 0; done < length; ) {
        const read = readSync(fd!, bytes, done, length - done, offset + done);
        if (read === 0)
          throw new Error(`${file} ends before the page ${record.job.path} held in it (at ${offset + done} of ${offset + length} bytes)`);
        done += read;
      }
      const json = bytes.toString();
      return { ...record, json, data: JSON.parse(json) };
    },
    remove() {
      if (fd === null) return;
      closeSync(fd);
      fd = null;
      end = 0;
      rmSync(file, { force: true });
    },
  };
}
