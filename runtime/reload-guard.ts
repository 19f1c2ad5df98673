/**
 * At most one automatic full-document load per target within RELOAD_GUARD_MS (SPEC.md section 9),
 * remembered in sessionStorage so it survives the reload it guards. Without storage there is no
 * automatic reload at all: never a loop (DESIGN.md decision 4).
 */

export const RELOAD_GUARD_MS = 10_000;

const KEY_PREFIX = 'site:reload:';

export interface ReloadGuardEnv {
  storage: () => Storage;
  now: () => number;
  assign: (url: string) => void;
}

/**
 * Loads `url` as a full document unless the same target was loaded automatically less than
 * 10 seconds ago. Returns true when the load was started.
 */
export function reloadOnce(url: string, env: ReloadGuardEnv): boolean {
  let storage: Storage;
  try {
    storage = env.storage();
    const key = KEY_PREFIX + new URL(url, 'http://x').pathname;
    const last = Number(storage.getItem(key) ?? 0);
    const now = env.now();
    if (now - last < RELOAD_GUARD_MS) return false;
    storage.setItem(key, String(now));
  } catch {
    return false;
  }
  env.assign(url);
  return true;
}

/** The browser's environment for reloadOnce. */
export function createBrowserReloadEnv(): ReloadGuardEnv {
  return {
    storage: () => window.sessionStorage,
    now: () => Date.now(),
    assign: (url) => window.location.assign(url),
  };
}
