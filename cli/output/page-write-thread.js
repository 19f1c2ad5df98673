// The page-write thread (write.ts, createPageWriter): writes each batch of pages it is sent, one file
// after the other, with synchronous calls. Plain JavaScript, so the thread starts the same way whether
// the CLI runs compiled or from its sources through tsx.
//
// Messages in: { pages: [{ dir, files: [[name, text]] }] }.
// Messages out: { written: n } after each batch, with { failure } when a write failed.
import { mkdirSync, writeFileSync } from 'node:fs';
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
    for (const { dir, files } of pages) {
      // Each page has a folder of its own.
      mkdirSync(dir, { recursive: true });
      for (const [name, text] of files) writeFileSync(join(dir, name), text);
    }
    port.postMessage({ written: pages.length });
  } catch (error) {
    failed = true;
    port.postMessage({ written: pages.length, failure: { message: error.message, code: error.code, path: error.path } });
  }
});
