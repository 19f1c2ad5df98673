import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ASSETS_DIR } from '../../runtime/shared/contract.ts';
import { htmlFileFor, payloadFileFor } from '../../runtime/shared/paths.ts';
import type { InspectedPages } from '../checks/collect.ts';

/** Files and bytes of one kind of output. */
export interface OutputTally {
  files: number;
  bytes: number;
}

/** The size of a build's output, by kind, and its largest pages and payloads. */
export interface OutputSize {
  files: number;
  bytes: number;
  /** pages: every page's index.html and _payload.json; other: feeds, calendars and top-level files. */
  byKind: { pages: OutputTally; assets: OutputTally; media: OutputTally; other: OutputTally };
  largestPages: { path: string; bytes: number }[];
  largestPayloads: { path: string; bytes: number }[];
}

/**
 * Sizes the output without walking every page folder (at 10,000 pages that alone costs a second):
 * the pages' bytes come from the page writer, feeds and calendars from the outputs step, and only the
 * assets, the media, the top-level files and the candidates for the largest pages are read from disk.
 */
export async function measureOutput(
  siteDir: string,
  pages: InspectedPages,
  pageBytes: number,
  outputs: OutputTally,
  top: number,
): Promise<OutputSize> {
  const [assets, media, topLevel, largestPages, largestPayloads] = await Promise.all([
    sizeTree(join(siteDir, ASSETS_DIR)),
    sizeTree(join(siteDir, 'media')),
    sizeTopFiles(siteDir),
    largest(siteDir, pages, top, 'html', htmlFileFor),
    largest(siteDir, pages, top, 'payload', payloadFileFor),
  ]);
  let payloads = 0;
  for (let i = 0; i < pages.length; i++) if (pages.chars(i, 'payload') > 0) payloads++;
  const byKind = {
    pages: { files: pages.length + payloads, bytes: pageBytes },
    assets,
    media,
    other: { files: outputs.files + topLevel.files, bytes: outputs.bytes + topLevel.bytes },
  };
  const kinds = Object.values(byKind);
  return {
    files: kinds.reduce((n, k) => n + k.files, 0),
    bytes: kinds.reduce((n, k) => n + k.bytes, 0),
    byKind,
    largestPages,
    largestPayloads,
  };
}

// --- internal ---

/** The `top` largest files of one kind: ranked by string length, then measured on disk (UTF-8 may reorder close ones). */
async function largest(
  siteDir: string,
  pages: InspectedPages,
  top: number,
  kind: 'html' | 'payload',
  file: (path: string) => string,
): Promise<{ path: string; bytes: number }[]> {
  if (top <= 0) return [];
  // The longest `top * 2`, the earlier page first among equals, kept as the pages go by: not every page
  // sorted, and no page's object made (pages.chars).
  const candidates: { index: number; length: number }[] = [];
  for (let index = 0; index < pages.length; index++) {
    const length = pages.chars(index, kind);
    if (length === 0 || (candidates.length === top * 2 && candidates.at(-1)!.length >= length)) continue;
    let at = candidates.length;
    while (at > 0 && candidates[at - 1]!.length < length) at--;
    candidates.splice(at, 0, { index, length });
    if (candidates.length > top * 2) candidates.pop();
  }
  const sized = await Promise.all(
    candidates.map(async ({ index }) => {
      const path = pages.path(index);
      return { path, bytes: (await stat(join(siteDir, file(path)))).size };
    }),
  );
  return sized.sort((a, b) => b.bytes - a.bytes).slice(0, top);
}

async function sizeTree(dir: string): Promise<OutputTally> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  const files = entries.filter((e) => e.isFile());
  const sizes = await Promise.all(files.map(async (e) => (await stat(join(e.parentPath, e.name))).size));
  return { files: files.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}

async function sizeTopFiles(dir: string): Promise<OutputTally> {
  const entries = await readdir(dir, { withFileTypes: true });
  // The home page's own files are counted with the pages.
  const files = entries.filter((e) => e.isFile() && e.name !== 'index.html' && e.name !== '_payload.json');
  const sizes = await Promise.all(files.map(async (e) => (await stat(join(dir, e.name))).size));
  return { files: files.length, bytes: sizes.reduce((a, b) => a + b, 0) };
}
