/**
 * What `site live` reports at /metrics, in the Prometheus text format (version 0.0.4): the last build
 * published, the lag from an edit being noticed to it being live, the updates waiting, and failures.
 * Pure: the process records, `metricsText` writes.
 */

/** Upper bounds of the lag and duration histograms, in seconds. */
export const SECONDS_BUCKETS = [0.25, 0.5, 1, 2, 5, 10, 30, 60, 300] as const;

export interface Histogram {
  /** Counts per bucket in SECONDS_BUCKETS, not cumulative. */
  counts: number[];
  count: number;
  sum: number;
}

export interface LiveMetrics {
  /** The build id latest.json names where this process last published (or updated the folder), and when (ms since the epoch). */
  lastPublished: { buildId: string; atMs: number } | null;
  /** Changes noticed (webhook calls and feed answers) waiting for an update to start: the queue's own count. */
  readonly queueDepth: number;
  /** An update is running: the queue's own state. */
  readonly updating: boolean;
  updates: { ok: number; failed: number };
  /** Failures by stage: `build` (the backend, the content), `publish` (the storage). */
  failures: Record<'build' | 'publish', number>;
  /** Updates that found nothing to publish. */
  unchanged: number;
  /** From the first change an update took to that update live. */
  lag: Histogram;
  /** An update's own time: build and publish. */
  duration: Histogram;
  /** Seconds from the last change live, for an alert on a stale site. */
  lastLagS: number | null;
  webhook: { taken: number; refused: number };
  startedAtMs: number;
}

/** The metrics, the queue's depth and whether it runs read from `queue` itself, so they are never stale. */
export function createLiveMetrics(now: number, queue: { readonly depth: number; readonly running: boolean }): LiveMetrics {
  const histogram = (): Histogram => ({ counts: SECONDS_BUCKETS.map(() => 0), count: 0, sum: 0 });
  return {
    lastPublished: null,
    get queueDepth() {
      return queue.depth;
    },
    get updating() {
      return queue.running;
    },
    updates: { ok: 0, failed: 0 },
    failures: { build: 0, publish: 0 },
    unchanged: 0,
    lag: histogram(),
    duration: histogram(),
    lastLagS: null,
    webhook: { taken: 0, refused: 0 },
    startedAtMs: now,
  };
}

export function observe(histogram: Histogram, seconds: number): void {
  const i = SECONDS_BUCKETS.findIndex((bound) => seconds <= bound);
  if (i >= 0) histogram.counts[i]!++;
  histogram.count++;
  histogram.sum += seconds;
}

/** The metrics as Prometheus scrapes them (Content-Type: text/plain; version=0.0.4). */
export function metricsText(m: LiveMetrics): string {
  const lines: string[] = [];
  const metric = (name: string, type: string, help: string, samples: [labels: string, value: number][]): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [labels, value] of samples) lines.push(`${name}${labels} ${formatValue(value)}`);
  };
  const histogram = (name: string, help: string, h: Histogram): void => {
    lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
    let cumulative = 0;
    SECONDS_BUCKETS.forEach((bound, i) => {
      cumulative += h.counts[i]!;
      lines.push(`${name}_bucket{le="${bound}"} ${cumulative}`);
    });
    lines.push(`${name}_bucket{le="+Inf"} ${h.count}`, `${name}_sum ${formatValue(h.sum)}`, `${name}_count ${h.count}`);
  };
  metric('site_live_start_time_seconds', 'gauge', 'When this process started, in seconds since the epoch.', [['', m.startedAtMs / 1000]]);
  metric(
    'site_live_last_published_timestamp_seconds',
    'gauge',
    'When the last update went live, in seconds since the epoch (0: none yet).',
    [['', (m.lastPublished?.atMs ?? 0) / 1000]],
  );
  if (m.lastPublished)
    metric('site_live_last_published_build_info', 'gauge', 'The build id latest.json names after the last update.', [
      [`{build_id="${labelValue(m.lastPublished.buildId)}"}`, 1],
    ]);
  metric('site_live_queue_depth', 'gauge', 'Changes noticed and waiting for an update to start.', [['', m.queueDepth]]);
  metric('site_live_updating', 'gauge', '1 while an update runs.', [['', m.updating ? 1 : 0]]);
  metric('site_live_updates_total', 'counter', 'Updates by result.', [
    ['{result="published"}', m.updates.ok - m.unchanged],
    ['{result="unchanged"}', m.unchanged],
    ['{result="failed"}', m.updates.failed],
  ]);
  metric('site_live_failures_total', 'counter', 'Failed update attempts by stage (build: backend or content; publish: storage).', [
    ['{stage="build"}', m.failures.build],
    ['{stage="publish"}', m.failures.publish],
  ]);
  metric('site_live_webhook_requests_total', 'counter', 'Webhook calls by outcome.', [
    ['{outcome="taken"}', m.webhook.taken],
    ['{outcome="refused"}', m.webhook.refused],
  ]);
  if (m.lastLagS !== null)
    metric('site_live_last_lag_seconds', 'gauge', 'Edit to live of the last update: from its first change noticed to live.', [
      ['', m.lastLagS],
    ]);
  histogram('site_live_lag_seconds', 'Edit to live: from the first change an update took being noticed to the update live.', m.lag);
  histogram('site_live_update_duration_seconds', "An update's build and publish.", m.duration);
  return `${lines.join('\n')}\n`;
}

// --- internal ---

function formatValue(value: number): string {
  return Number.isFinite(value) ? String(Math.round(value * 1e6) / 1e6) : value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
}

/** A label value as the text format writes it: backslash, double quote and newline escaped. */
function labelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}
