import { ASSETS_DIR, type BuildMeta, type RouteRule } from './shared/contract.ts';
import { matchRouteRules } from './shared/route-rules.ts';
import { isVerySlowConnection } from './connection.ts';

/** Fetched about one second after hydration (SPEC.md section 9). */
export const MANIFEST_PREFETCH_DELAY_MS = 1000;

export interface BuildManifest {
  /** The manifest, or null when it cannot be loaded; fetches it now if needed. */
  load(): Promise<BuildMeta | null>;
  /** The manifest once its scheduled fetch (or an earlier navigation) loaded it: never fetches early. */
  ready(): Promise<BuildMeta | null>;
  /** The route rule for a path; a manifest that cannot be loaded means no rules (DESIGN.md decision 1). */
  ruleFor(path: string): Promise<RouteRule>;
  /** Starts the delayed background fetch, unless the connection is slow-2g. */
  schedulePrefetch(): void;
}

/** Loads `builds/meta/{buildId}.json` once; a failed load is forgotten so a later call tries again. */
export function createBuildManifest(buildId: string, fetchImpl: typeof fetch = (...args) => fetch(...args)): BuildManifest {
  let pending: Promise<BuildMeta | null> | null = null;
  let settle: (meta: BuildMeta | null) => void = () => undefined;
  const ready = new Promise<BuildMeta | null>((resolve) => (settle = resolve));
  const load = (): Promise<BuildMeta | null> => {
    pending ??= fetchImpl(`/${ASSETS_DIR}/builds/meta/${buildId}.json`)
      .then((r) => (r.ok ? r.json() : null))
      .then((meta: unknown) => (isBuildMeta(meta) ? meta : null))
      .catch(() => null)
      .then((meta) => {
        if (!meta) pending = null;
        settle(meta);
        return meta;
      });
    return pending;
  };
  return {
    load,
    ready: () => ready,
    async ruleFor(path) {
      const meta = await load();
      return meta ? matchRouteRules(meta.matcher, path) : {};
    },
    schedulePrefetch() {
      if (isVerySlowConnection()) return;
      setTimeout(() => void load(), MANIFEST_PREFETCH_DELAY_MS);
    },
  };
}

// --- internal ---

function isBuildMeta(value: unknown): value is BuildMeta {
  const m = value as Partial<BuildMeta> | null;
  return !!m && typeof m === 'object' && typeof m.matcher === 'object' && m.matcher !== null && Array.isArray(m.prerendered) && typeof m.chunks === 'object' && m.chunks !== null;
}
