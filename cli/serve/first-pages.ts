import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { htmlFileFor, payloadFileFor } from '../../runtime/shared/paths.ts';
import type { DevOverlay, OverlayEntry } from './dev-server.ts';
import type { OpenPage } from './open-page-renderer.ts';

/**
 * The open pages `site dev` rendered first after an edit (open-page-renderer.ts), served in place of the
 * dev build's files until a build that saw the edit is done.
 */
export interface FirstPages {
  /** The files served in place of the build's. */
  overlay(): DevOverlay;
  /**
   * Serves the pages that differ from the build's files, from now on; returns their paths (the pages to
   * reload). A page the same as the folder's is remembered too: if the build writes it unchanged, the
   * page need not reload after the build.
   */
  show(pages: readonly OpenPage[], at: number): Promise<string[]>;
  /**
   * A build that started at `startedAt` ended (`ok`: it replaced the folder). The pages it saw the edit
   * of are served from the folder again. `current`: by path, the rendering (`first`, '' for the folder's
   * file) a page loaded with already shows what is served now (the build wrote what was shown first, or
   * a newer edit is still shown first): such a page needs no reload. `dropped`: the paths whose page
   * shown first is gone without a build behind it (the build failed).
   */
  settle(startedAt: number, ok: boolean): Promise<{ current: Map<string, string>; dropped: Set<string> }>;
}

export function createFirstPages(siteDir: string): FirstPages {
  // Each page rendered first since the build that saw its edit; `served` when it differs from the folder's,
  // under the name `first` its live-reload client reports.
  const shown = new Map<string, { at: number; page: OpenPage; served: boolean; first: string }>();
  let files: DevOverlay = new Map();
  let renderings = 0;
  const update = (): void => {
    const next = new Map<string, OverlayEntry>();
    for (const { page, served, first } of shown.values()) {
      if (!served) continue;
      // A medium the folder does not hold yet (an image added with the edit) comes from the renderer's copy (it copies no other).
      for (const [file, copy] of Object.entries(page.media)) next.set(file, { file: copy });
      next.set(htmlFileFor(page.path), { text: page.html, first });
      if (page.payload !== null) next.set(payloadFileFor(page.path), { text: page.payload });
    }
    files = next;
  };
  const sameAsFolder = async (page: OpenPage): Promise<boolean> => {
    const [html, payload] = await Promise.all([
      readText(join(siteDir, htmlFileFor(page.path))),
      page.payload === null ? null : readText(join(siteDir, payloadFileFor(page.path))),
    ]);
    return html === page.html && payload === page.payload;
  };
  return {
    overlay: () => files,
    async show(pages, at) {
      const changed: string[] = [];
      for (const page of pages) {
        // A page the edit did not change is served from the folder as before, and not reloaded.
        const served = shown.get(page.path)?.served === true || !(await sameAsFolder(page));
        shown.set(page.path, { at, page, served, first: served ? String(++renderings) : '' });
        if (served) changed.push(page.path);
      }
      update();
      return changed;
    },
    async settle(startedAt, ok) {
      const current = new Map<string, string>();
      const dropped = new Set<string>();
      for (const [path, { at, page, served, first }] of shown) {
        if (at >= startedAt) {
          // An edit made after the build started: its page stays shown first until the next build.
          current.set(path, first);
          continue;
        }
        shown.delete(path);
        if (!ok) {
          // The folder is the last good build's: a page that showed something else goes back to it.
          if (served) dropped.add(path);
          else current.set(path, first);
        } else if (await sameAsFolder(page)) current.set(path, first);
      }
      update();
      return { current, dropped };
    },
  };
}

// --- internal ---

async function readText(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch(() => null);
}
