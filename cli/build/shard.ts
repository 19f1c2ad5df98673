import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ASSETS_DIR, type ClientConfig } from '../../runtime/shared/contract.ts';
import type { AssetManifest } from '../bundle/bundle.ts';
import type { InspectedPage, InspectedSite } from '../checks/collect.ts';
import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { writeSiteFile } from '../output/write.ts';
import type { PageRecordForState, PageRecordList } from './incremental/build-state.ts';

/** One share of a sharded build: `index` from 1 to `count`. */
export interface Shard {
  index: number;
  count: number;
}

/**
 * Whether a page belongs to the shard: a hash of its route and path, so the split is the same on every
 * machine and every run, needs no list of the whole site, and spreads each route's pages (and so their
 * cost, which is mostly per route) evenly over the shards.
 */
export function inShard(shard: Shard, routeId: string, path: string): boolean {
  return shardOf(routeId, path, shard.count) === shard.index;
}

/** The shard (1 to `count`) a page belongs to. */
export function shardOf(routeId: string, path: string, count: number): number {
  const hash = createHash('sha1').update(routeId).update('\0').update(path).digest();
  return (hash.readUInt32BE(0) % count) + 1;
}

/** What a shard tells the merge: its pages and their facts, and what the site-wide files need. */
export interface ShardManifest {
  version: number;
  buildId: string;
  shard: Shard;
  /** The build's timestamp: every shard's and the merge's are the same (SOURCE_DATE_EPOCH). */
  timestamp: number;
  baseUrl: string;
  /** serializeJson of the site-wide data, which the build id covers. */
  siteJson: string;
  assets: AssetManifest;
  client: ClientConfig;
  csp: string | null;
  /** Every page the shard wrote, with what the sitemap, the checks and the build meta need of it. */
  pages: ShardPage[];
  /** Media URLs the shard copied. */
  media: string[];
}

export interface ShardPage extends PageRecordForState {
  inspected: InspectedPage;
  links: readonly string[];
}

/** Where a shard's manifest is written in its output folder; the merged site does not keep it. */
export const SHARDS_DIR = `${ASSETS_DIR}/builds/shards`;

export function shardManifestFile(shard: Shard): string {
  return `${SHARDS_DIR}/${shard.index}-of-${shard.count}.json`;
}

/** Parses `i/n` (from --shard or SITE_SHARD; an indexed Job's shard is cli/config/config.ts shardOfJob). */
export function parseShard(value: string | undefined): Shard | null {
  if (value === undefined || value === '') return null;
  const match = /^(\d+)\/(\d+)$/.exec(value.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (!match || count < 1 || count > 10_000 || index < 1 || index > count)
    throw createBuildError(BuildErrors.InvalidOption, ['--shard', value, 'i/n with 1 ≤ i ≤ n, such as 2/4']);
  return { index, count };
}

/** The shard's pages as the merge reads them: each inspected page with its own links and its build-state record. */
export function shardPages(site: InspectedSite, records: PageRecordList): ShardPage[] {
  const links: string[][] = Array.from({ length: site.pages.length }, () => []);
  for (const [link, users] of site.links) for (const user of users) links[user]!.push(link);
  return links.map((pageLinks, i) => ({ ...records.at(i)!, inspected: site.pages.at(i), links: pageLinks }));
}

export async function writeShardManifest(siteDir: string, manifest: ShardManifest): Promise<void> {
  await writeSiteFile(siteDir, shardManifestFile(manifest.shard), JSON.stringify(manifest));
}

/** Reads the manifest of the shard in `dir`, whichever shard it is; null when the folder holds none. */
export async function readShardManifest(dir: string): Promise<ShardManifest | null> {
  const names = await readdir(join(dir, SHARDS_DIR)).catch(() => [] as string[]);
  const name = names.find((n) => /^\d+-of-\d+\.json$/.test(n));
  if (!name) return null;
  const manifest = JSON.parse(await readFile(join(dir, SHARDS_DIR, name), 'utf8')) as ShardManifest;
  return manifest.version === SHARD_MANIFEST_VERSION ? manifest : null;
}

export const SHARD_MANIFEST_VERSION = 1;
