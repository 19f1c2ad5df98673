import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { htmlFileFor, payloadFileFor } from '../runtime/shared/paths.ts';
import type { RenderedPage } from './render.tsx';
import { BuildErrors, createBuildError } from './errors.ts';

/** Writes a page's `index.html` and `_payload.json` under `siteDir`; returns the bytes written. */
export async function writePage(siteDir: string, path: string, page: RenderedPage): Promise<number> {
  const html = Buffer.from(page.html);
  await writeSiteFile(siteDir, htmlFileFor(path), html);
  if (page.payload === null) return html.length;
  const payload = Buffer.from(page.payload);
  await writeSiteFile(siteDir, payloadFileFor(path), payload);
  return html.length + payload.length;
}

/** Writes one file under `siteDir`, refusing any relative path that resolves outside it (DESIGN.md decision 7). */
export async function writeSiteFile(siteDir: string, relative: string, content: string | Uint8Array): Promise<void> {
  const root = resolve(siteDir);
  const file = resolve(root, relative);
  if (!file.startsWith(root + sep)) throw createBuildError(BuildErrors.UnsafePath, [relative, 'output']);
  await ensureDir(dirname(file));
  await writeFile(file, content);
}

/**
 * Writes pages while the caller renders the next ones: file system calls run on libuv's thread pool,
 * rendering on the main thread, so the two overlap. At most `maxInFlight` pages are being written.
 */
export function createPageWriter(siteDir: string, maxInFlight = 64): { write(path: string, page: RenderedPage): Promise<void>; drain(): Promise<number> } {
  const inFlight = new Set<Promise<void>>();
  let bytes = 0;
  let failure: unknown = null;
  return {
    async write(path, page) {
      if (failure) throw failure;
      const job = writePage(siteDir, path, page).then(
        (n) => void (bytes += n),
        (error: unknown) => void (failure ??= error),
      );
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
      if (inFlight.size >= maxInFlight) await Promise.race(inFlight);
    },
    async drain() {
      await Promise.all(inFlight);
      if (failure) throw failure;
      return bytes;
    },
  };
}

// --- internal ---

// Thousands of pages share few folders: create each folder once instead of once per file.
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
