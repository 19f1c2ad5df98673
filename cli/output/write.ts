import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative as relativePath, resolve, sep } from 'node:path';
import { Worker } from 'node:worker_threads';
import { htmlFileFor, payloadFileFor } from '../../runtime/shared/paths.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';

/** A page's files. */
export interface PageFiles {
  html: string;
  /** Null for a page without a payload (error pages). */
  payload: string | null;
}

/** Writes one file under `siteDir`, refusing any relative path that resolves outside it (docs/decisions/untrusted-content.md). */
export async function writeSiteFile(siteDir: string, relative: string, content: string | Uint8Array): Promise<void> {
  await writeFile(await prepareSiteFile(siteDir, relative), content);
}

/**
 * Writes `file` (its folder created) through a temporary file beside it: a reader never sees half of
 * it, an interrupted write leaves the previous content whole, and a failed one leaves nothing behind.
 * The content is given whole, or written by `fill` into the temporary path it is handed (a stream, a
 * hard link): the one way the tool replaces a file.
 */
export async function writeFileAtomic(file: string, content: string | Uint8Array | ((temp: string) => Promise<void>)): Promise<void> {
  const temp = `${file}.${randomUUID()}.tmp`;
  try {
    if (typeof content === 'function') {
      await mkdir(dirname(file), { recursive: true });
      await content(temp);
    } else {
      // Most folders exist already (thousands of media in a few): made only when the write says so.
      await writeFile(temp, content).catch(async (error: unknown) => {
        if ((error as NodeJS.ErrnoException)?.code !== 'ENOENT') throw error;
        await mkdir(dirname(file), { recursive: true });
        await writeFile(temp, content);
      });
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * The absolute path of a file under `siteDir`, with its folder created: refuses any relative path that
 * resolves outside the folder.
 */
export async function prepareSiteFile(siteDir: string, relative: string): Promise<string> {
  const file = safePath(resolve(siteDir), relative);
  await ensureDir(dirname(file));
  return file;
}

/**
 * Writes pages while the caller renders the next ones, on a thread of its own (page-write-thread.js)
 * that writes one file after another with synchronous calls. On a small machine this costs the kernel
 * about half the CPU time of many parallel writes, which contend for the same folders, and it keeps
 * encoding and file system calls off the thread that renders.
 */
export interface PageWriter {
  write(path: string, page: PageFiles): Promise<void>;
  /** Waits for every write, or throws the first failure; then the writer's thread ends. */
  drain(): Promise<void>;
}

export function createPageWriter(siteDir: string, { batchSize = 16, maxQueued = 64, reuseFrom = null as string | null } = {}): PageWriter {
  const root = resolve(siteDir);
  const previous = reuseFrom === null ? null : resolve(reuseFrom);
  const thread = new Worker(new URL('./page-write-thread.js', import.meta.url), {
    // What the thread allocates (a batch's strings) is dead once the batch is written: 4 MB holds it.
    // V8's default, or `site build`'s cap before bin/site.js lifted it for threads, let each thread keep
    // about 40 MB for 10-14 used; at 100,000 pages the build's peak is 70 MiB lower for the same time
    // (docs/performance.md, 2026-11-27: the page-write threads' young generation).
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  // The thread keeps the process alive only while it has pages to write.
  thread.unref();
  let batch: WriteBatch['pages'] = [];
  let queued = 0;
  let failure: Error | null = null;
  // Callers waiting for the queue to shrink: the renderer may have several pages in hand at once.
  const waiting: (() => void)[] = [];
  const waitForWrites = (): Promise<void> => new Promise((resolve) => waiting.push(resolve));
  let closed = false;
  const settle = (): void => {
    if (queued === 0) thread.unref();
    for (const resolve of waiting.splice(0)) resolve();
  };
  thread.on('message', (message: Written) => {
    queued -= message.written;
    if (message.failure) failure ??= Object.assign(new Error(message.failure.message), message.failure);
    settle();
  });
  thread.on('error', (error) => {
    failure ??= error;
    settle();
  });
  // A thread that ends before its pages are written (killed, out of memory) must not leave the build waiting.
  thread.on('exit', (code) => {
    if (closed || queued === 0) return;
    failure ??= new Error(`The page-write thread stopped (exit code ${code}) with ${queued} pages of ${root} not written.`);
    settle();
  });
  const flush = (): void => {
    if (batch.length === 0) return;
    thread.ref();
    thread.postMessage({ pages: batch } satisfies WriteBatch);
    batch = [];
  };
  return {
    async write(path, page) {
      if (failure) throw failure;
      if (closed) throw new Error(`The page writer for ${root} was drained before ${path} came.`);
      const html = safePath(root, htmlFileFor(path));
      const files: [string, string][] = [[basename(html), page.html]];
      if (page.payload !== null) files.push([basename(payloadFileFor(path)), page.payload]);
      batch.push({ dir: dirname(html), files, ...(previous ? { from: join(previous, relativePath(root, dirname(html))) } : {}) });
      queued++;
      if (batch.length >= batchSize || queued >= maxQueued) flush();
      while (queued >= maxQueued && !failure) await waitForWrites();
    },
    async drain() {
      flush();
      while (queued > 0 && !failure) await waitForWrites();
      closed = true;
      await thread.terminate();
      if (failure) throw failure;
    },
  };
}

// --- internal ---

interface WriteBatch {
  /** `from`: the page's folder in the previous output, whose identical files are linked, not written. */
  pages: { dir: string; files: [name: string, text: string][]; from?: string }[];
}

/** The thread's answer to each batch. */
interface Written {
  written: number;
  failure?: { message: string; code?: string; path?: string };
}

/**
 * Whether `relative`, joined to a folder, would lead out of it (a `..` segment) or cannot name a file
 * (a NUL). A string test, for checking many paths at once; safePath resolves one against its folder.
 */
export function leavesFolder(relative: string): boolean {
  return PARENT_OR_NUL.test(relative);
}

const PARENT_OR_NUL = /(?:^|[/\\])\.\.(?:[/\\]|$)|\0/;

/**
 * A normalised file name as a file system may compare it: without case and Unicode form (APFS and HFS+
 * fold `ſ` to `s` and take `é` and `e\u0301` for one name). Two names with one key may be one file.
 */
export function fileKey(relative: string): string {
  // Case folding maps a final sigma to sigma, and macOS's file systems ignore the default-ignorable code points.
  return relative
    .normalize('NFKC')
    .toLowerCase()
    .replaceAll('ς', 'σ')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '');
}

/** The absolute path of `relative` under `root`, refusing any that resolves outside it. */
export function safePath(root: string, relative: string): string {
  const file = resolve(root, relative);
  if (!file.startsWith(root + sep)) throw createBuildError(BuildErrors.UnsafePath, [relative, 'output']);
  return file;
}

// Media and outputs share few folders: create each folder once instead of once per file.
const madeDirs = new Map<string, Promise<unknown>>();

function ensureDir(dir: string): Promise<unknown> {
  let made = madeDirs.get(dir);
  if (!made) {
    if (madeDirs.size > 100_000) madeDirs.clear();
    made = mkdir(dir, { recursive: true });
    made.catch(() => madeDirs.delete(dir));
    madeDirs.set(dir, made);
  }
  return made;
}
