import { join } from 'node:path';
import { findRoute, type RouteDefinition } from '../../../runtime/routes.ts';
import { payloadFileFor } from '../../../runtime/shared/paths.ts';
import type { BuiltPages, RouteDataDefinition } from '../../../runtime/shared/route-data.ts';
import { pageHash, type BuildState } from './build-state.ts';
import { BuildErrors, createBuildError } from '../../errors/errors.ts';
import { pageLastmod, type PageRecord } from '../../content/query.ts';
import { mapAhead } from '../../content/read-ahead.ts';
import { readText } from '../../output/read.ts';

/** A page of the previous build whose route the change feed says did not change. */
export interface KeptPage {
  path: string;
  routeId: string;
  /** pageHash of what the previous build wrote (build/incremental/build-state.ts). */
  hash: string;
}

/**
 * The pages of routes no change touched, and those their routes' entries gave as unchanged, read back
 * from the previous output instead of asked of the backend: each page's payload holds its data exactly
 * as the build serialised it, so the record is the one a crawl would give (build/incremental/changed-routes.ts says
 * why it is the same). Each must hash to what the previous build remembered (KeptPageChanged otherwise).
 * READ_AT_ONCE files ahead of the caller. A page `reading` says needs no data (what the build needs of
 * it is in the build state: its media and the extra outputs' notes) is not read at all: its record has
 * no data and `unread` set. `reading` is awaited before the first page, since the build knows its
 * outputs only once the build id is.
 */
export async function* keptPages(
  outDir: string,
  pages: readonly KeptPage[],
  routes: readonly RouteDefinition[],
  routeData: Readonly<Record<string, RouteDataDefinition>>,
  reading: Promise<(routeId: string, path: string) => boolean> = Promise.resolve(() => true),
): AsyncGenerator<PageRecord> {
  const byId = new Map(routes.map((r) => [r.id, r]));
  const needsData = await reading;
  const jobOf = ({ path, routeId }: KeptPage): PageRecord['job'] => {
    const route = byId.get(routeId)!;
    return { route, path, params: findRoute([route], path)?.params ?? {} };
  };
  const read = async (page: KeptPage): Promise<PageRecord> => {
    const json = await keptDataJson(outDir, page.path, page.routeId, page.hash);
    const data: unknown = JSON.parse(json);
    return { job: jobOf(page), data, json, lastmod: pageLastmod(routeData[page.routeId], data), hash: page.hash };
  };
  const unread = (page: KeptPage): boolean => !needsData(page.routeId, page.path);
  // Nearly every kept page is kept unread and needs no file: it is handed on as it is found, without a
  // promise of the read-ahead's (an edit at 10,000 pages keeps some 10,700 so). The pages to read are read
  // ahead in runs, in the pages' order.
  for (let i = 0; i < pages.length; ) {
    const page = pages[i]!;
    if (unread(page)) {
      yield { job: jobOf(page), data: undefined, json: '', hash: page.hash, unread: true };
      i++;
      continue;
    }
    let end = i + 1;
    while (end < pages.length && !unread(pages[end]!)) end++;
    yield* mapAhead(pages.slice(i, end), READ_AT_ONCE, read);
    i = end;
  }
}

/**
 * Any built page's data, for the extra outputs' files (OutputCollector.files): from the staging folder
 * where this build wrote the page, else from the previous output, where it must hash to what the
 * previous build remembered (KeptPageChanged otherwise), as a kept page read back does.
 */
export function builtPages(siteDir: string, outDir: string, previous: Pick<BuildState, 'pages'> | null): BuiltPages {
  return {
    async data(path) {
      const staged = await readText(join(siteDir, payloadFileFor(path))).catch(() => null);
      if (staged !== null) return JSON.parse(dataJsonOf(staged, path)) as unknown;
      const before = previous?.pages.get(path);
      if (!before) throw createBuildError(BuildErrors.KeptPageChanged, [path, payloadFileFor(path)]);
      return JSON.parse(await keptDataJson(outDir, path, before.inspected.route, before.hash)) as unknown;
    },
  };
}

/**
 * The page's data JSON as the build wrote it into the payload (render/render.tsx): between `"data":` and
 * `,"prerenderedAt":`, byte for byte, so its hash is the one the build state remembers.
 */
export function dataJsonOf(payload: string, path: string): string {
  const start = payload.indexOf('"data":');
  const end = payload.lastIndexOf(',"prerenderedAt":');
  if (start < 0 || end < start) throw createBuildError(BuildErrors.KeptPageChanged, [path, payloadFileFor(path)]);
  return payload.slice(start + '"data":'.length, end);
}

// --- internal ---

/** A kept page's data JSON from the previous output, checked against the hash the previous build remembered. */
async function keptDataJson(outDir: string, path: string, routeId: string, hash: string): Promise<string> {
  const file = payloadFileFor(path);
  const payload = await readText(join(outDir, file)).catch(() => '');
  const json = dataJsonOf(payload, path);
  // The data goes into pages again as it is, uncleaned: it must be what the build wrote, byte for byte.
  if (pageHash(routeId, path, json) !== hash) throw createBuildError(BuildErrors.KeptPageChanged, [path, file]);
  return json;
}

/** Payloads read ahead: enough to keep the disk busy, few enough to hold little. */
const READ_AT_ONCE = 64;
