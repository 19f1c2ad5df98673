import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findRoute, type RouteDefinition } from '../../runtime/routes.ts';
import { payloadFileFor } from '../../runtime/shared/paths.ts';
import type { RouteDataDefinition } from '../../runtime/shared/route-data.ts';
import type { PageRecord } from './query.ts';

/** A page of the previous build whose route the change feed says did not change. */
export interface KeptPage {
  path: string;
  routeId: string;
}

/**
 * The pages of routes no change touched, read back from the previous output instead of asked of the
 * backend: each page's payload holds its data exactly as the build serialised it, so the record is the
 * one a crawl would give (build/changed-routes.ts says why it is the same). READ_AT_ONCE files at a time.
 */
export async function* keptPages(outDir: string, pages: readonly KeptPage[], routes: readonly RouteDefinition[], routeData: Readonly<Record<string, RouteDataDefinition>>): AsyncGenerator<PageRecord> {
  const byId = new Map(routes.map((r) => [r.id, r]));
  const read = async ({ path, routeId }: KeptPage): Promise<PageRecord> => {
    const route = byId.get(routeId)!;
    const params = findRoute([route], path)?.params ?? {};
    const payload = await readFile(join(outDir, payloadFileFor(path)), 'utf8');
    const json = dataJsonOf(payload, path);
    const data: unknown = JSON.parse(json);
    return { job: { route, path, params }, data, json, lastmod: routeData[routeId]?.lastmod?.(data as never) };
  };
  for (let start = 0; start < pages.length; start += READ_AT_ONCE) {
    yield* await Promise.all(pages.slice(start, start + READ_AT_ONCE).map(read));
  }
}

/**
 * The page's data JSON as the build wrote it into the payload (render/render.tsx): between `"data":` and
 * `,"prerenderedAt":`, byte for byte, so its hash is the one the build state remembers.
 */
export function dataJsonOf(payload: string, path: string): string {
  const start = payload.indexOf('"data":');
  const end = payload.lastIndexOf(',"prerenderedAt":');
  if (start < 0 || end < start) throw new Error(`the payload of ${path} in the previous output is not one this generator writes`);
  return payload.slice(start + '"data":'.length, end);
}

// --- internal ---

/** Payloads read at once: enough to keep the disk busy, few enough to hold little. */
const READ_AT_ONCE = 64;
