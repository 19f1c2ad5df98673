import { describe, expect, it } from 'vitest';
import type { BuildState } from '../../../../cli/build/incremental/build-state.ts';
import type { SavedBuild } from '../../../../cli/build/incremental/incremental.ts';
import {
  decidePlan,
  logPlan,
  mergePlan,
  previousOf,
  type BuildPlan,
  type PlanInput,
  type ShardFolder,
} from '../../../../cli/build/plan.ts';
import type { ShardManifest } from '../../../../cli/build/shard.ts';
import type { Logger } from '../../../../cli/terminal/logger.ts';

function state(buildId: string, search: BuildState['search'] = null): BuildState {
  return {
    buildId,
    save: 'save-1',
    pages: new Map(),
    outputs: new Map(),
    media: new Set(),
    search,
    feed: null,
    warnings: null,
    sample: [],
  };
}

const SEARCHED: BuildState['search'] = { partitions: [{ key: 'k', files: ['_search/0/a.pf_meta'] }], docs: [['/news/', 'h']] };

function input(saved: SavedBuild, over: Partial<PlanInput> = {}): PlanInput {
  return { buildId: 'b1', saved, shard: null, nothingAsked: false, search: false, ...over };
}

function logged(plan: BuildPlan): string[] {
  const lines: string[] = [];
  const logger = {
    info: (scope: string, message: string) => lines.push(`info ${scope}: ${message}`),
    debug: (scope: string, message: string) => lines.push(`debug ${scope}: ${message}`),
  } as unknown as Logger;
  logPlan(plan, { outDir: '/site/dist', buildId: 'b1' }, logger);
  return lines;
}

/** Why loadBuildState and savedBuild find no state to go on from: each renders every page, and says so under --verbose. */
const NO_STATE = [
  '--full',
  'no previous build of this folder in the build cache',
  "the build cache's state is not signed with this build's cache key (SITE_CACHE_KEY or the key file changed, or the cache was altered)",
  'the build cache holds another format',
  "the generator's or the site's code, the document shell, a dependency, Node.js or an option changed since the previous build",
  'the build cache\'s state names "../x", which is outside the output folder or not a name a build writes (a damaged or altered cache)',
  'the build cache\'s state has a damaged record of the page "/news/" (a damaged or altered cache)',
  'the output folder no longer holds the build the cache describes',
  'the output folder was replaced or restored since the previous build (it is not the folder that build wrote)',
  "the output folder's /news/ is not what the previous build wrote",
  "the output folder's /news/index.html is missing or not the size the previous build wrote",
  'the previous build could not be read (Unexpected end of JSON input)',
];

describe('the build plan', () => {
  it.each(NO_STATE)('renders every page when there is no state to go on from: %s', (reason) => {
    const plan = decidePlan(input({ state: null, reason }, { nothingAsked: true }));
    expect(plan).toEqual({ kind: 'full', reason });
    expect(previousOf(plan)).toBeNull();
    expect(logged(plan)).toEqual([`debug build: rendering every page: ${reason}`]);
  });

  it('renders every page when the build id changed (the code, options or site-wide data), even with nothing asked', () => {
    const plan = decidePlan(input({ state: state('b0') }, { buildId: 'b1', nothingAsked: true }));
    expect(plan).toEqual({ kind: 'full', reason: 'the code, options or site-wide data changed (build b0 → b1)' });
    expect(previousOf(plan)).toBeNull();
  });

  it('updates in place a folder with this very build id, and says so', () => {
    const previous = state('b1');
    const plan = decidePlan(input({ state: previous }));
    expect(plan).toEqual({ kind: 'in-place', previous });
    expect(previousOf(plan)).toBe(previous);
    expect(logged(plan)).toEqual([
      'info build: updating build b1 in /site/dist: only pages whose data changed are rendered (--full renders every page)',
    ]);
  });

  it('leaves the output as it is when the feed asks nothing and the search index is as before', () => {
    const previous = state('b1');
    const plan = decidePlan(input({ state: previous }, { nothingAsked: true }));
    expect(plan).toEqual({ kind: 'unchanged', previous });
    expect(previousOf(plan)).toBe(previous);
    expect(logged(plan)).toEqual([
      'info build: updating build b1 in /site/dist: only pages whose data changed are rendered (--full renders every page)',
    ]);
    const searched = state('b1', SEARCHED);
    expect(decidePlan(input({ state: searched }, { nothingAsked: true, search: true }))).toEqual({ kind: 'unchanged', previous: searched });
  });

  it('updates in place, not as it stands, when the search index is wanted and was not built, or was built and is not wanted', () => {
    const bare = state('b1');
    expect(decidePlan(input({ state: bare }, { nothingAsked: true, search: true }))).toEqual({ kind: 'in-place', previous: bare });
    const searched = state('b1', SEARCHED);
    expect(decidePlan(input({ state: searched }, { nothingAsked: true, search: false }))).toEqual({ kind: 'in-place', previous: searched });
  });

  it('renders a shard in full, saying why as a full build does', () => {
    const shard = { index: 2, count: 4 };
    const plan = decidePlan(input({ state: null, reason: '--full' }, { shard, nothingAsked: true }));
    expect(plan).toEqual({ kind: 'shard', shard, reason: '--full' });
    expect(previousOf(plan)).toBeNull();
    expect(logged(plan)).toEqual(['debug build: rendering every page: --full']);
  });
});

/** The folder `dir` holding shard `index` of `count` of build `buildId`. */
function shardFolder(dir: string, index: number, count: number, buildId = 'b1', timestamp = 1_790_000_000_000): ShardFolder {
  return { dir, manifest: { buildId, timestamp, shard: { index, count } } as ShardManifest };
}

describe('the plan of a merge', () => {
  it('is a plan kind of its own: the shards 1 to n of one build, in their order, with no previous build', () => {
    const plan = mergePlan([shardFolder('/s/3', 3, 3), shardFolder('/s/1', 1, 3), shardFolder('/s/2', 2, 3)]);
    expect(plan.kind).toBe('merge');
    expect(plan.shards.map((s) => s.dir)).toEqual(['/s/1', '/s/2', '/s/3']);
    expect(previousOf(plan)).toBeNull();
    // The merge says what it joins once the shards are linked in (build/merge.ts), not here.
    expect(logged(plan)).toEqual([]);
  });

  it.each([
    ['none given', [], 'no shard folders were given'],
    ['a shard missing', [shardFolder('/s/1', 1, 3)], 'shard 2/3, 3/3 are missing'],
    ['a shard twice', [shardFolder('/s/1', 1, 2), shardFolder('/t/1', 1, 2)], '/s/1 and /t/1 are both shard 1/2'],
    [
      'shards of two builds',
      [shardFolder('/s/1', 1, 2), shardFolder('/s/2', 2, 2, 'b2')],
      '/s/2 is shard 2/2 of build b2, /s/1 of build b1',
    ],
    ['shards of two timestamps', [shardFolder('/s/1', 1, 2), shardFolder('/s/2', 2, 2, 'b1', 0)], 'SOURCE_DATE_EPOCH differ'],
    ['shards of two splits', [shardFolder('/s/1', 1, 2), shardFolder('/s/2', 2, 3)], '/s/2 is one of 3 shards, /s/1 one of 2'],
  ])('is refused with %s, naming the folders', (_, shards, problem) => {
    expect(() => mergePlan(shards)).toThrow(problem);
    expect(() => mergePlan(shards)).toThrow(/The shards cannot be merged/);
  });
});
