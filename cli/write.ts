import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { htmlFileFor, payloadFileFor } from '../runtime/shared/paths.ts';
import type { RenderedPage } from './render.tsx';
import { BuildErrors, createBuildError } from './errors.ts';

/** Writes a page's `index.html` and `_payload.json` under `siteDir`. */
export async function writePage(siteDir: string, path: string, page: RenderedPage): Promise<number> {
  await writeSiteFile(siteDir, htmlFileFor(path), page.html);
  if (page.payload !== null) await writeSiteFile(siteDir, payloadFileFor(path), page.payload);
  return Buffer.byteLength(page.html) + (page.payload ? Buffer.byteLength(page.payload) : 0);
}

/** Writes one file under `siteDir`, refusing any relative path that resolves outside it (DESIGN.md decision 7). */
export async function writeSiteFile(siteDir: string, relative: string, content: string | Uint8Array): Promise<void> {
  const root = resolve(siteDir);
  const file = resolve(root, relative);
  if (!file.startsWith(root + sep)) throw createBuildError(BuildErrors.UnsafePath, [relative, 'output']);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
}
