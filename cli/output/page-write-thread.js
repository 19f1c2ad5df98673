// The page-write thread (write.ts, createPageWriter): writes each batch of pages it is sent, one file
// after the other, with synchronous calls. Plain JavaScript, so the thread starts the same way whether
// the CLI runs compiled or from its sources through tsx.
//
// Messages in: { pages: [{ dir, files: [[name, text]], from? }] }: `from` is the page's folder in the
// previous output, whose files are hard-linked instead of written when their bytes are the same.
// Messages out: { written: n } after each batch, with { failure } when a write failed.
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort } from 'node:worker_threads';

if (!parentPort) throw new Error('page-write-thread.js runs only as a worker thread.');
const port = parentPort;
let failed = false;

port.on('message', (message) => {
  const { pages } = message;
  // After a failure the build is going to stop: nothing more is written.
  if (failed) return port.postMessage({ written: pages.length });
  try {
    for (const { dir, files, from } of pages) {
      // Each page has a folder of its own.
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of files) {
        if (!(from && linkedUnchanged(join(from, name), join(dir, name), text))) writeFileSync(join(dir, name), text);
      }
    }
    port.postMessage({ written: pages.length });
  } catch (error) {
    failed = true;
    port.postMessage({ written: pages.length, failure: { message: error.message, code: error.code, path: error.path } });
  }
});

/**
 * Links `target` to the previous output's `previous` when it holds exactly `text`: a build into the
 * folder of the previous one then writes only what changed, and removing the retired tree frees only
 * those files' blocks (on a disk with online discard, deleting written data is what costs). False when
 * the file differs, is missing, or cannot be linked (another file system): the caller writes it.
 */
function linkedUnchanged(previous, target, text) {
  let bytes;
  try {
    bytes = readFileSync(previous);
  } catch {
    return false;
  }
  if (bytes.length !== Buffer.byteLength(text) || !bytes.equals(Buffer.from(text))) return false;
  try {
    linkSync(previous, target);
    return true;
  } catch {
    return false;
  }
}
