import { describe, expect, it } from 'vitest';
import { parseShard } from '../../../../cli/build/shard.ts';
import { resolveConfig, shardOfJob } from '../../../../cli/config/config.ts';
import { isBuildError } from '../../../../cli/errors/errors.ts';

/** The option's value parsed (or, without one, the Kubernetes job's index): the refusal's code and message. */
function refusal(value: string | undefined, env: Record<string, string | undefined>): { code: string; message: string } {
  try {
    if (value === undefined) shardOfJob(env);
    else parseShard(value);
  } catch (error) {
    if (isBuildError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error(`the shard ${value ?? JSON.stringify(env)} was not refused`);
}

/** Which share of a sharded build this job makes: a wrong one would build some pages twice and others never. */
describe('the shard option', () => {
  it('takes i/n with 1 ≤ i ≤ n ≤ 10,000, with spaces around it and numbers of several digits', () => {
    expect(parseShard(' 12/40 ')).toEqual({ index: 12, count: 40 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    expect(parseShard('4/4')).toEqual({ index: 4, count: 4 });
    expect(parseShard('10000/10000')).toEqual({ index: 10_000, count: 10_000 });
    expect(parseShard('')).toBeNull();
    // --shard wins over the job index.
    expect(
      resolveConfig({ shard: '2/3' }, { JOB_COMPLETION_INDEX: '0', SITE_SHARD_COUNT: '3', SOURCE_DATE_EPOCH: '1700000000' }).shard,
    ).toEqual({ index: 2, count: 3 });
  });

  it.each(['5/4', '1/0', '0/1', '1/10001', 'x2/4', '2/4x', '2/4/6', '-1/4', '1.5/4'])(
    'refuses --shard %s, naming the option and the value',
    (value) => {
      expect(refusal(value, {})).toEqual({
        code: 'InvalidOption',
        message: `Expected --shard to be i/n with 1 ≤ i ≤ n, such as 2/4, got '${value}'.`,
      });
    },
  );

  it('takes a Kubernetes job index from 0 to SITE_SHARD_COUNT - 1, and refuses one outside, naming both', () => {
    expect(shardOfJob({ JOB_COMPLETION_INDEX: '2', SITE_SHARD_COUNT: '3' })).toEqual({ index: 3, count: 3 });
    expect(shardOfJob({ JOB_COMPLETION_INDEX: '', SITE_SHARD_COUNT: '3' })).toBeNull();
    const why = 'an index from 0 to SITE_SHARD_COUNT - 1, with SITE_SHARD_COUNT the number of shards';
    expect(refusal(undefined, { JOB_COMPLETION_INDEX: '0' })).toEqual({
      code: 'InvalidOption',
      message: `Expected JOB_COMPLETION_INDEX with SITE_SHARD_COUNT to be ${why}, got '0 of (unset)'.`,
    });
    for (const [index, count] of [
      ['0', '0'],
      ['-1', '3'],
      ['1.5', '3'],
      ['0', '2.5'],
      ['x', '3'],
    ] as const) {
      expect(refusal(undefined, { JOB_COMPLETION_INDEX: index, SITE_SHARD_COUNT: count })).toEqual({
        code: 'InvalidOption',
        message: `Expected JOB_COMPLETION_INDEX with SITE_SHARD_COUNT to be ${why}, got '${index} of ${count}'.`,
      });
    }
  });
});
