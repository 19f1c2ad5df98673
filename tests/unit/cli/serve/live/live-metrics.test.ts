import { describe, expect, it } from 'vitest';
import { createLiveMetrics, metricsText, observe } from '../../../../../cli/serve/live/live-metrics.ts';

describe("site live's metrics", () => {
  it('are Prometheus text: HELP and TYPE before each family, cumulative histogram buckets ending at +Inf, sum and count', () => {
    const m = createLiveMetrics(1_795_000_000_000, { depth: 3, running: false });
    m.lastPublished = { buildId: 'abc"\\\n', atMs: 1_795_000_100_500 };
    m.updates = { ok: 5, failed: 2 };
    m.unchanged = 1;
    m.failures = { build: 1, publish: 1 };
    for (const s of [0.2, 0.8, 0.9, 4, 400]) observe(m.lag, s);
    const text = metricsText(m);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trim().split('\n');
    // Every sample's family has its HELP and TYPE lines before it.
    const families = new Set<string>();
    for (const line of lines) {
      if (line.startsWith('# TYPE ')) families.add(line.split(' ')[2]!);
      else if (!line.startsWith('# HELP ')) {
        const name = line.split(/[{ ]/)[0]!;
        expect(
          [...families].some((f) => name === f || name.startsWith(`${f}_`)),
          line,
        ).toBe(true);
        expect(line).toMatch(/^[a-z_]+(\{[a-z_]+="(?:[^"\\]|\\.)*"(,[a-z_]+="(?:[^"\\]|\\.)*")*\})? -?[\d.e+]+$|\+Inf$/);
      }
    }
    expect(lines).toContain('site_live_queue_depth 3');
    expect(lines).toContain('site_live_updates_total{result="published"} 4');
    expect(lines).toContain('site_live_updates_total{result="unchanged"} 1');
    expect(lines).toContain('site_live_updates_total{result="failed"} 2');
    expect(lines).toContain('site_live_failures_total{stage="publish"} 1');
    expect(lines).toContain('site_live_last_published_timestamp_seconds 1795000100.5');
    expect(lines).toContain('site_live_last_published_build_info{build_id="abc\\"\\\\\\n"} 1');
    expect(lines).toContain('site_live_lag_seconds_bucket{le="0.25"} 1');
    expect(lines).toContain('site_live_lag_seconds_bucket{le="1"} 3');
    expect(lines).toContain('site_live_lag_seconds_bucket{le="5"} 4');
    expect(lines).toContain('site_live_lag_seconds_bucket{le="300"} 4');
    expect(lines).toContain('site_live_lag_seconds_bucket{le="+Inf"} 5');
    expect(lines).toContain('site_live_lag_seconds_count 5');
    expect(lines).toContain('site_live_lag_seconds_sum 405.9');
    expect(lines.filter((l) => l === '# TYPE site_live_lag_seconds histogram')).toHaveLength(1);
  });

  it('say no build was published yet as a zero time and no build id', () => {
    const text = metricsText(createLiveMetrics(0, { depth: 0, running: false }));
    expect(text).toContain('site_live_last_published_timestamp_seconds 0\n');
    expect(text).not.toContain('site_live_last_published_build_info');
    expect(text).not.toContain('site_live_last_lag_seconds');
  });
});
