import { closeSync, constants, fstatSync, openSync, readFileSync, readFile as readFileWithCallback } from 'node:fs';

/**
 * Reading many small files of an output folder (a payload or page per page: kept pages, the shards'
 * merge, the search index's pages). `fs/promises`' readFile opens a FileHandle and
 * goes to the thread pool four times per file (open, fstat, read, close), each with a promise: reading
 * the 10,803 payloads of the sample site that way took 490–1,100 ms of wall time and 0.7–1.5 s of CPU,
 * against 190–290 ms and 0.3–0.45 s with the callback API, which these wrap. One-off reads may use either.
 */

/** The file's text (UTF-8). */
export function readText(file: string): Promise<string> {
  return new Promise((resolve, reject) => readFileWithCallback(file, { encoding: 'utf8', flag: NO_WAIT }, (error, text) => (error ? reject(error) : resolve(text))));
}

/** The file's bytes. */
export function readBytes(file: string): Promise<Buffer> {
  return new Promise((resolve, reject) => readFileWithCallback(file, { flag: NO_WAIT }, (error, bytes) => (error ? reject(error) : resolve(bytes))));
}

/**
 * Opened without waiting: a FIFO put in a file's place (between a build's check of the folder and its
 * read) reads as empty, or fails, rather than holding the build, and its lock, for ever. A plain
 * file reads as it always does.
 */
const NO_WAIT = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * The bytes of a file that must be a plain file, read without waiting on anything else: a FIFO, a device
 * or a folder in its place is an error, not a read that never ends. For the few files a build reads
 * before it trusts a folder (latest.json, its meta, the sampled pages).
 */
export function readPlainFile(file: string): Buffer {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw Object.assign(new Error(`${file} is not a plain file`), { code: 'ENOTPLAIN' });
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
