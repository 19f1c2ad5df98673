import { BuildErrors, createBuildError } from '../errors/errors.ts';
import type { Logger } from '../terminal/logger.ts';
import type { BuildState } from './incremental/build-state.ts';
import type { SavedBuild } from './incremental/incremental.ts';
import type { Shard, ShardManifest } from './shard.ts';

/**
 * What a build does, decided before its stages run for it. `site build` decides once its build id is
 * known (decidePlan); `site build --merge` from the shards' manifests, before anything else (mergePlan).
 * - `full`: every page renders into a new output, which replaces the folder; `reason` says why the
 *   previous build cannot be updated (--full, no state, a state that does not hold, another build id).
 * - `in-place`: the folder holds this very build id; only pages whose route, path or data changed
 *   render, and only the files that changed move into the folder.
 * - `unchanged`: as in place, and the change feed says no page's data can have changed: the output
 *   stands as it is (build/incremental/unchanged.ts).
 * - `shard`: this machine's share of the pages, rendered in full into a folder `site build --merge`
 *   joins (a shard is never updated in place: config/config.ts turns that off); `reason` as for `full`.
 * - `merge`: no page renders; the folders of shards 1 to n of one build, in that order, are joined
 *   into a new output, which replaces the folder (build/merge.ts).
 */
export type BuildPlan = RenderPlan | MergePlan;

/** The plans of a build that renders pages (decidePlan). */
export type RenderPlan =
  | { kind: 'full'; reason: string }
  | { kind: 'in-place'; previous: BuildState }
  | { kind: 'unchanged'; previous: BuildState }
  | { kind: 'shard'; shard: Shard; reason: string };

/** The plan of `site build --merge` (mergePlan). */
export interface MergePlan {
  kind: 'merge';
  /** Shards 1 to n of one build, in that order. */
  shards: readonly ShardFolder[];
}

/** A shard's output folder, and the manifest it holds (build/shard.ts). */
export interface ShardFolder {
  dir: string;
  manifest: ShardManifest;
}

export interface PlanInput {
  /** The build id this build makes (build/render-context.ts). */
  buildId: string;
  /** The state the folder's previous build saved, or why there is none to go on from (build/incremental/incremental.ts savedBuild). */
  saved: SavedBuild;
  /** This machine's share of the pages; null: every page. */
  shard: Shard | null;
  /** The change feed says no route's documents can see a change since the previous build (false without a feed). */
  nothingAsked: boolean;
  /** This build writes the site search's index. */
  search: boolean;
}

/**
 * The plan for `input`: a shard renders its share in full; a folder whose state holds and has this
 * very build id is updated in place, or left as it is when nothing any page reads changed and its
 * search index is there exactly when this build wants one; otherwise every page renders.
 */
export function decidePlan(input: PlanInput): RenderPlan {
  const { saved, buildId } = input;
  const found: SavedBuild =
    saved.state && saved.state.buildId !== buildId
      ? { state: null, reason: `the code, options or site-wide data changed (build ${saved.state.buildId} → ${buildId})` }
      : saved;
  if (input.shard)
    return { kind: 'shard', shard: input.shard, reason: found.state ? 'a shard renders every page of its share' : found.reason };
  if (!found.state) return { kind: 'full', reason: found.reason };
  const previous = found.state;
  // The search index as the previous build left it: there when this build wants one, absent when not.
  const searchAsBefore = (previous.search !== null) === input.search;
  return input.nothingAsked && searchAsBefore ? { kind: 'unchanged', previous } : { kind: 'in-place', previous };
}

/**
 * The plan of a merge of `shards` (each folder with its manifest, in the order given): the shards 1 to n
 * of one build, each once, in their order. Throws ShardsIncomplete, naming the folders, otherwise.
 */
export function mergePlan(shards: readonly ShardFolder[]): MergePlan {
  const fail = (problem: string): never => {
    throw createBuildError(BuildErrors.ShardsIncomplete, [problem]);
  };
  if (shards.length === 0) fail('no shard folders were given');
  const { buildId, timestamp, shard } = shards[0]!.manifest;
  for (const { dir, manifest } of shards) {
    if (manifest.buildId !== buildId || manifest.timestamp !== timestamp)
      fail(
        `${dir} is shard ${manifest.shard.index}/${manifest.shard.count} of build ${manifest.buildId}, ${shards[0]!.dir} of build ${buildId} (code, options, content or SOURCE_DATE_EPOCH differ)`,
      );
    if (manifest.shard.count !== shard.count)
      fail(`${dir} is one of ${manifest.shard.count} shards, ${shards[0]!.dir} one of ${shard.count}`);
  }
  const byIndex = new Map<number, string>();
  for (const { dir, manifest } of shards) {
    const other = byIndex.get(manifest.shard.index);
    if (other) fail(`${other} and ${dir} are both shard ${manifest.shard.index}/${shard.count}`);
    byIndex.set(manifest.shard.index, dir);
  }
  const missing = Array.from({ length: shard.count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    fail(`shard ${missing.map((i) => `${i}/${shard.count}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing`);
  return { kind: 'merge', shards: [...shards].sort((a, b) => a.manifest.shard.index - b.manifest.shard.index) };
}

/** The previous build a plan goes on from: null when every page renders, or the shards' pages are joined. */
export function previousOf(plan: BuildPlan): BuildState | null {
  return plan.kind === 'in-place' || plan.kind === 'unchanged' ? plan.previous : null;
}

/**
 * Says what the build does: an update in place, or why every page renders (under --verbose). A merge
 * says it once its shards are linked in, with their page count (build/merge.ts).
 */
export function logPlan(plan: BuildPlan, options: { outDir: string; buildId: string }, logger: Logger): void {
  if (plan.kind === 'in-place' || plan.kind === 'unchanged')
    logger.info(
      'build',
      `updating build ${options.buildId} in ${options.outDir}: only pages whose data changed are rendered (--full renders every page)`,
    );
  else if (plan.kind !== 'merge') logger.debug?.('build', `rendering every page: ${plan.reason}`);
}
