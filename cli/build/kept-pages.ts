import { join } from 'node:path';
import { findRoute, type RouteDefinition } from '../../runtime/routes.ts';
import { payloadFileFor } from '../../runtime/shared/paths.ts';
import type { RouteDataDefinition } from '../../runtime/shared/route-data.ts';
import { pageHash } from './build-state.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import type { PageRecord } from '../content/query.ts';
import { mapAhead } from '../content/read-ahead.ts';
import { readText } from '../output/read.ts';

/** A page of the previous build whose route the change feed says did not change. */
export interface KeptPage {
  path: string;
  routeId: string;
  /** pageHash of what the previous build wrote (build/build-state.ts). */
  hash: string;
}

/**
 * The pages of routes no change touched, read back from the previous output instead of asked of the
 * backend: each page's payload holds its data exactly as the build serialised it, so the record is the
 * one a crawl would give (build/changed-routes.ts says why it is the same). Each must hash to what the
 * previous build remembered (KeptPageChanged otherwise). READ_AT_ONCE files ahead of the caller.
 */
export async function* keptPages(outDir: string, pages: readonly KeptPage[], routes: readonly RouteDefinition[], routeData: Readonly<Record<string, RouteDataDefinition>>): AsyncGenerator<PageRecord> {
  const byId = new Map(routes.map((r) => [r.id, r]));
  const read = async ({ path, routeId, hash }: KeptPage): Promise<PageRecord> => {
    const route = byId.get(routeId)!;
    const params = findRoute([route], path)?.params ?? {};
    const file = payloadFileFor(path);
    const payload = await readText(join(outDir, file)).catch(() => '');
    const json = dataJsonOf(payload, path);
    // The data goes into pages again as it is, uncleaned: it must be what the build wrote, byte for byte.
    if (pageHash(routeId, path, json) !== hash) throw createBuildError(BuildErrors.KeptPageChanged, [path, file]);
    const data: unknown = JSON.parse(json);
    return { job: { route, path, params }, data, json, lastmod: routeData[routeId]?.lastmod?.(data as never), hash };
  };
  yield* mapAhead(pages, READ_AT_ONCE, read);
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

/** Payloads read ahead: enough to keep the disk busy, few enough to hold little. */
const READ_AT_ONCE = 64;
