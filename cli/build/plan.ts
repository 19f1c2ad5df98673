import type { Logger } from '../terminal/logger.ts';
import type { BuildState } from './incremental/build-state.ts';
import type { SavedBuild } from './incremental/incremental.ts';
import type { Shard } from './shard.ts';

/**
 * What a build does, decided from what it knows once its build id is: the stages then run for it.
 * - `full`: every page renders into a new output, which replaces the folder; `reason` says why the
 *   previous build cannot be updated (--full, no state, a state that does not hold, another build id).
 * - `in-place`: the folder holds this very build id; only pages whose route, path or data changed
 *   render, and only the files that changed move into the folder.
 * - `unchanged`: as in place, and the change feed says no page's data can have changed: the output
 *   stands as it is (build/incremental/unchanged.ts).
 * - `shard`: this machine's share of the pages, rendered in full into a folder `site build --merge`
 *   joins (a shard is never updated in place: config/config.ts turns that off); `reason` as for `full`.
 */
export type BuildPlan =
  | { kind: 'full'; reason: string }
  | { kind: 'in-place'; previous: BuildState }
  | { kind: 'unchanged'; previous: BuildState }
  | { kind: 'shard'; shard: Shard; reason: string };

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
export function decidePlan(input: PlanInput): BuildPlan {
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

/** The previous build a plan goes on from: null when every page renders. */
export function previousOf(plan: BuildPlan): BuildState | null {
  return plan.kind === 'in-place' || plan.kind === 'unchanged' ? plan.previous : null;
}

/** Says what the build does: an update in place, or why every page renders (under --verbose). */
export function logPlan(plan: BuildPlan, options: { outDir: string; buildId: string }, logger: Logger): void {
  if (plan.kind === 'in-place' || plan.kind === 'unchanged')
    logger.info(
      'build',
      `updating build ${options.buildId} in ${options.outDir}: only pages whose data changed are rendered (--full renders every page)`,
    );
  else logger.debug?.('build', `rendering every page: ${plan.reason}`);
}
