import type { BuildMeta, LatestBuild, RouteRule } from '../../runtime/shared/contract.ts';
import { compareText } from '../../runtime/shared/compare.ts';
import { LATEST_FILE, metaFileFor } from '../../runtime/shared/paths.ts';
import type { RouteDefinition } from '../../runtime/routes.ts';
import { writeSiteFile } from './write.ts';

export interface BuildMetaInput {
  buildId: string;
  timestamp: number;
  routes: readonly RouteDefinition[];
  routeRules: Readonly<Record<string, RouteRule>>;
  /** Each page's path and its route's place in the route table. */
  built: Iterable<{ path: string; route: number }>;
  /** Each page module's chunks (the bundle's manifest). */
  pageChunks: Readonly<Record<string, readonly string[]>>;
}

/**
 * Writes builds/meta/{id}.json (the pages this build prerendered, its route rules and each route's
 * chunks), then builds/latest.json: the commit point for clients, written after everything it points to
 * exists. Returns the prerendered paths, in route order.
 */
export async function writeBuildMeta(siteDir: string, input: BuildMetaInput): Promise<string[]> {
  const { buildId: id, timestamp } = input;
  const chunks = Object.fromEntries(input.routes.map((r) => [r.id, [...(input.pageChunks[r.page] ?? [])]]));
  const prerendered = [...input.built].sort((a, b) => a.route - b.route || compareText(a.path, b.path)).map((b) => b.path);
  const meta: BuildMeta = { id, timestamp, matcher: input.routeRules, prerendered, chunks };
  await writeSiteFile(siteDir, metaFileFor(id), JSON.stringify(meta));
  const latest: LatestBuild = { id, timestamp };
  await writeSiteFile(siteDir, LATEST_FILE, JSON.stringify(latest));
  return prerendered;
}
