import { closeSync, constants, openSync, readSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import type { PageRecord } from './query.ts';

/**
 * Pages held ahead while the client bundles (content/page-stream.ts), written to a scratch file: a cold
 * build crawls the whole sample site while rollup builds its module graph in the bundle thread, and
 * held in memory, as parsed data beside a JSON string (two bytes a character for most pages), those
 * pages were 120 MiB of the build's peak at 10,803 pages; as UTF-8 bytes, still 77 MiB. On disk they
 * cost a write and a read from the page cache each, on the main thread, and no memory of the build's own.
 * The file is bounded in bytes (`maxBytes`): pages past it are held in memory as they were before the
 * spill file existed, where the read-ahead's budget of characters counts them and so holds the crawl back.
 */
export interface PageSpill {
  /**
   * Writes the page's JSON to the file: what is held is the page without its data and JSON, and where
   * they are; or, once the file holds its cap, the page itself.
   */
  pack(record: PageRecord): PackedPage | PageRecord;
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

/**
 * A spill to `file`, at most `maxBytes` long, created with the first page packed (none: no file). The
 * file is made new, never opened through a link or over a file already there: the staging folder is the
 * build's own, so anything at that name was put there by someone else, and the build stops.
 */
export function createPageSpill(file: string, maxBytes: number): PageSpill {
  let fd: number | null = null;
  let end = 0;
  return {
    pack(record) {
      const bytes = Buffer.from(record.json);
      if (end + bytes.length > maxBytes) return record;
      fd ??= createExclusive(file);
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

// --- internal ---

/** Opens `file` for reading and writing, created now: never a file or a link that was there already. */
function createExclusive(file: string): number {
  try {
    return openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_RDWR | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw createBuildError(
        BuildErrors.OutputNotWritable,
        [
          dirname(file),
          `${file} exists already, though only this build makes it (the pages it reads ahead), so something else writes into its staging folder`,
        ],
        { cause: error },
      );
    throw error;
  }
}
