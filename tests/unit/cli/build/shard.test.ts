import { describe, expect, it } from 'vitest';
import { inShard, parseShard, shardOf } from '../../../../cli/build/shard.ts';
import { shardOfJob } from '../../../../cli/config/config.ts';
import { isBuildError } from '../../../../cli/errors/errors.ts';

describe('the split of a sharded build', () => {
  const pages = Array.from({ length: 3000 }, (_, i) => ({ route: ['news-article', 'event', 'publication'][i % 3]!, path: `/x/item-${i}` }));

  it('gives every page to exactly one shard, the same one on every call, spread evenly within each route', () => {
    for (const count of [1, 2, 4, 7]) {
      const counts = new Map<string, number>();
      for (const { route, path } of pages) {
        const owners = Array.from({ length: count }, (_, i) => i + 1).filter((index) => inShard({ index, count }, route, path));
        expect(owners).toEqual([shardOf(route, path, count)]);
        counts.set(`${route} ${owners[0]}`, (counts.get(`${route} ${owners[0]}`) ?? 0) + 1);
      }
      // 1000 pages per route: each shard's share within 25% of the even split.
      for (const n of counts.values()) expect(Math.abs(n - 1000 / count)).toBeLessThan((1000 / count) * 0.25);
    }
  });

  it('puts a page in the same shard on every machine and every run: the split is a fixed function of route and path', () => {
    // Shards are built by separate jobs and merged: each must agree on who owns a page without talking to
    // the others. These owners were taken once and written down; a split that changes (another hash, the
    // route left out, a count taken modulo differently) moves pages between shards built by mixed versions.
    const owners = (route: string, path: string): number[] => [2, 3, 4, 7].map((count) => shardOf(route, path, count));
    expect(owners('news-article', '/news/a')).toEqual([2, 1, 2, 3]);
    expect(owners('event', '/events/open-day')).toEqual([1, 1, 3, 4]);
    expect(owners('publication', '/publications/2024/x')).toEqual([2, 3, 2, 4]);
    expect(owners('news-article', '/x/item-1')).toEqual([1, 2, 1, 6]);
    expect(shardOf('news-article', '/news/a', 1)).toBe(1);
  });

  it('takes the shard from --shard i/n, SITE_SHARD, or a Kubernetes JOB_COMPLETION_INDEX with SITE_SHARD_COUNT', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    expect(shardOfJob({ JOB_COMPLETION_INDEX: '0', SITE_SHARD_COUNT: '3' })).toEqual({ index: 1, count: 3 });
    expect(parseShard(undefined)).toBeNull();
    expect(shardOfJob({})).toBeNull();
    for (const bad of ['0/2', '3/2', '2', 'a/b']) {
      let caught: unknown;
      try {
        parseShard(bad);
      } catch (error) {
        caught = error;
      }
      expect(isBuildError(caught) && caught.code, bad).toBe('InvalidOption');
    }
    expect(() => shardOfJob({ JOB_COMPLETION_INDEX: '3', SITE_SHARD_COUNT: '3' })).toThrow(/JOB_COMPLETION_INDEX/);
  });
});
