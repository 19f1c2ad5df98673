import { LATEST_FILE } from './shared/paths.ts';
import type { LatestBuild } from './shared/contract.ts';

export interface BuildUpdateOptions {
  buildId: string;
  /** Milliseconds between checks; the first check is one interval after hydration (docs/decisions/navigation-by-payloads.md, decision 5). */
  interval: number;
  /** Called once, when latest.json names another build; polling stops then. */
  onNewBuild: (latest: LatestBuild) => void;
  fetch?: typeof fetch;
}

/**
 * Polls builds/latest.json with a timestamp query (a cache-buster, and no custom headers so a CDN
 * on another origin needs no preflight). A different id, older or newer, means this tab is stale.
 * Errors are ignored and the next check is scheduled.
 */
export function watchForNewBuild({
  buildId,
  interval,
  onNewBuild,
  fetch: fetchImpl = (...args) => fetch(...args),
}: BuildUpdateOptions): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const check = async (): Promise<void> => {
    try {
      const response = await fetchImpl(`/${LATEST_FILE}?${Date.now()}`);
      const latest = response.ok ? ((await response.json()) as Partial<LatestBuild>) : null;
      if (latest && typeof latest.id === 'string' && latest.id !== buildId) {
        stopped = true;
        onNewBuild({ id: latest.id, timestamp: Number(latest.timestamp) || 0 });
        return;
      }
    } catch {
      // A failed check is not a new build; try again next interval.
    }
    if (!stopped) timer = setTimeout(() => void check(), interval);
  };
  timer = setTimeout(() => void check(), interval);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
