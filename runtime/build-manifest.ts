import { ASSETS_DIR, type BuildMeta, type RouteRule } from './shared/contract.ts';
import { matchRouteRules } from './shared/route-rules.ts';
import { isVerySlowConnection } from './connection.ts';

/** Fetched about one second after hydration (docs/decisions/navigation-by-payloads.md, constants). */
export const MANIFEST_PREFETCH_DELAY_MS = 1000;

export interface BuildManifest {
  /** The manifest, or null when it cannot be loaded; fetches it now if needed. */
  load(): Promise<BuildMeta | null>;
  /**
   * The manifest once its scheduled fetch (or an earlier navigation) settled: never fetches early.
   * Null while it could not be loaded; a failed load is retried later (MANIFEST_RETRY_MS), and from
   * then on ready() gives the manifest. Callers treat null as "unknown", never as "everything".
   */
  ready(): Promise<BuildMeta | null>;
  /** The route rule for a path; a manifest that cannot be loaded means no rules (docs/decisions/navigation-by-payloads.md, decision 1). */
  ruleFor(path: string): Promise<RouteRule>;
  /** Starts the delayed background fetch, unless the connection is slow-2g. */
  schedulePrefetch(): void;
}

/** Delays before the retries of a failed manifest load (the first failure is not final: issue 17.5). */
export const MANIFEST_RETRY_MS = [2000, 8000, 30000];

/** Loads `builds/meta/{buildId}.json` once; a failed load is forgotten so a later call tries again, and retried on its own. */
export function createBuildManifest(
  buildId: string,
  fetchImpl: typeof fetch = (...args) => fetch(...args),
  retryMs: readonly number[] = MANIFEST_RETRY_MS,
): BuildManifest {
  let pending: Promise<BuildMeta | null> | null = null;
  let loaded: BuildMeta | null = null;
  let settled = false;
  let settle: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (settle = resolve));
  let retries = 0;
  const load = (): Promise<BuildMeta | null> => {
    if (loaded) return Promise.resolve(loaded);
    pending ??= fetchImpl(`/${ASSETS_DIR}/builds/meta/${buildId}.json`)
      .then((r) => (r.ok ? r.json() : null))
      .then((meta: unknown) => (isBuildMeta(meta) ? meta : null))
      .catch(() => null)
      .then((meta) => {
        pending = null;
        if (meta) loaded = meta;
        else if (retries < retryMs.length) setTimeout(() => void load(), retryMs[retries++]);
        settled = true;
        settle();
        return meta;
      });
    return pending;
  };
  return {
    load,
    ready: () => (settled ? Promise.resolve(loaded) : first.then(() => loaded)),
    async ruleFor(path) {
      const meta = await load();
      return meta ? matchRouteRules(meta.matcher, path) : {};
    },
    schedulePrefetch() {
      // Observable for tests and tools: whether the background fetch was scheduled.
      document.documentElement.dataset.manifest = isVerySlowConnection() ? 'skipped' : 'scheduled';
      if (isVerySlowConnection()) return;
      setTimeout(() => void load(), MANIFEST_PREFETCH_DELAY_MS);
    },
  };
}

// --- internal ---

function isBuildMeta(value: unknown): value is BuildMeta {
  const m = value as Partial<BuildMeta> | null;
  return (
    !!m &&
    typeof m === 'object' &&
    typeof m.matcher === 'object' &&
    m.matcher !== null &&
    Array.isArray(m.prerendered) &&
    typeof m.chunks === 'object' &&
    m.chunks !== null
  );
}
