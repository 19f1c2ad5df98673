import type { ClientConfig, SiteData } from '../../runtime/shared/contract.ts';
import type { AssetManifest } from '../bundle/bundle.ts';
import { siteInfoOf } from '../../runtime/site-context.ts';
import { clientConfigOf, type ResolvedConfig } from '../config/config.ts';
import type { SiteModules } from '../config/site-modules.ts';
import { serializeJson } from '../../runtime/shared/serialize.ts';
import { readBuild } from '../output/output.ts';
import type { RenderContext } from '../render/render.tsx';
import type { DocumentShell } from '../render/template.ts';
import { createBuildId } from './build-id.ts';

export interface RenderContextInput {
  site: SiteData;
  /** serializeJson(site). */
  siteJson: string;
  modules: SiteModules;
  assets: AssetManifest;
  shell: DocumentShell;
  client: ClientConfig;
  csp: string | null;
  /** --base-url; null: the backend's site.url. */
  baseUrl: string | null;
  /** Seconds since the epoch from SOURCE_DATE_EPOCH; null: the time the build id was first made. */
  sourceDateEpoch: number | null;
  /** The output folder, whose build may already be this build id. */
  outDir: string;
  now: () => Date;
}

/**
 * The render context of a build with `config`'s options, from the site's data and code and the client
 * bundle: how `site build` and `site dev`'s open pages make it alike.
 */
export function renderContextFor(
  config: Pick<ResolvedConfig, 'baseUrl' | 'sourceDateEpoch' | 'outDir' | 'buildCheckInterval' | 'publicEndpoint' | 'sentryDsn'>,
  parts: Pick<RenderContextInput, 'site' | 'modules' | 'assets' | 'shell' | 'csp' | 'now'>,
): Promise<{ ctx: RenderContext; timestamp: number }> {
  return createRenderContext({
    ...parts,
    siteJson: serializeJson(parts.site),
    client: clientConfigOf(config),
    baseUrl: config.baseUrl,
    sourceDateEpoch: config.sourceDateEpoch,
    outDir: config.outDir,
  });
}

/** What every page of the build shares, its id among it, and the build's timestamp (milliseconds). */
export async function createRenderContext(input: RenderContextInput): Promise<{ ctx: RenderContext; timestamp: number }> {
  const { site, siteJson, modules, assets, shell, client, csp } = input;
  const info = siteInfoOf(site);
  const baseUrl = input.baseUrl ?? (info.url || 'http://localhost');
  // The id covers what every page shares: code, shell, options (SOURCE_DATE_EPOCH, which dates every
  // page, among them), rules and the site-wide data. A page's
  // own content is not part of it, so editing one item leaves every other page's bytes unchanged.
  const buildId = createBuildId([
    assets.hash,
    shell.parts.join('\0'),
    JSON.stringify({ baseUrl, client, routeRules: modules.routeRules, csp, sourceDateEpoch: input.sourceDateEpoch }),
    siteJson,
  ]);
  // Every page of one build id carries the same prerenderedAt, the time that build was first made: a
  // build into a folder that holds the same id (incremental or --full) keeps its timestamp, so the
  // pages it keeps and the pages it renders agree, byte for byte, with a full build.
  const timestamp =
    input.sourceDateEpoch !== null
      ? input.sourceDateEpoch * 1000
      : ((await previousTimestamp(input.outDir, buildId)) ?? input.now().getTime());
  const ctx: RenderContext = {
    buildId,
    prerenderedAt: new Date(timestamp).toISOString(),
    site,
    siteJson,
    siteName: info.name,
    language: info.language,
    baseUrl,
    routes: modules.routes,
    layouts: modules.layouts,
    modules: modules.modules,
    assets,
    shell,
    client,
    csp,
  };
  return { ctx, timestamp };
}

// --- internal ---

/** The timestamp of the build in `outDir` when it is build `buildId`, else null. */
async function previousTimestamp(outDir: string, buildId: string): Promise<number | null> {
  const latest = await readBuild(outDir).then(
    (b) => b.latest,
    () => null,
  );
  return latest?.id === buildId ? latest.timestamp : null;
}
