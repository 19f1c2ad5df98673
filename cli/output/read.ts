import { close, constants, fstat, open, read } from 'node:fs';
import { stat } from 'node:fs/promises';

/**
 * Reading the files of an output folder: many small ones (a payload or page per page: kept pages, the
 * shards' merge, the search index's pages, the commit's comparison) and a few the build reads before it
 * trusts the folder. Each must be a plain file, read to its size and no further: a FIFO, a device or a
 * link in its place (put there between a build's check of the folder and its read) is an error, not a
 * read that never ends or never stops. The callback API, not `fs/promises`: its FileHandle and promise
 * per step took 0.7-1.5 s of CPU for the 10,803 payloads of the sample site, against 0.3-0.45 s.
 */

/**
 * What changes with a file's bytes: its device and inode, size, and modification and change times (in
 * nanoseconds). Two equal stamps: the file was not written in between. Fails as `stat` does.
 */
export async function fileStamp(path: string): Promise<string> {
  const info = await stat(path, { bigint: true });
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** The file's text (UTF-8). */
export async function readText(file: string): Promise<string> {
  return (await readBytes(file)).toString('utf8');
}

/** The file's bytes. */
export function readBytes(file: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    open(file, NO_WAIT, (opened, fd) => {
      if (opened) return reject(opened);
      const done = (error: Error | null, bytes?: Buffer): void => close(fd, () => (error ? reject(error) : resolve(bytes!)));
      fstat(fd, (failed, info) => {
        if (failed) return done(failed);
        if (!info.isFile()) return done(notPlain(file));
        // As readFile does: a file past 2 GiB is an error, not an allocation or a read that throws out of this callback.
        if (info.size > MAX_BYTES) return done(Object.assign(new Error(`${file} is larger than 2 GiB`), { code: 'ERR_FS_FILE_TOO_LARGE' }));
        const buffer = Buffer.allocUnsafe(info.size);
        let offset = 0;
        const next = (): void =>
          read(fd, buffer, offset, info.size - offset, offset, (error, count) => {
            if (error) return done(error);
            offset += count;
            if (count === 0 || offset === info.size) return done(null, offset === info.size ? buffer : buffer.subarray(0, offset));
            next();
          });
        if (info.size === 0) done(null, buffer);
        else next();
      });
    });
  });
}

// --- internal ---

/** The largest file read, as fs.readFile allows (2 GiB less a byte). */
const MAX_BYTES = 2 ** 31 - 1;

/** Opened without waiting (a FIFO) and not through a link in the file's own place. */
const NO_WAIT = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

function notPlain(file: string): Error {
  return Object.assign(new Error(`${file} is not a plain file`), { code: 'ENOTPLAIN' });
}
