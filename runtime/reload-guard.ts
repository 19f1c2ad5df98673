/**
 * Automatic full-document loads can never loop (docs/decisions/navigation-by-payloads.md), fast or slow. Per target path,
 * remembered in sessionStorage so it survives the reload it guards:
 * - an automatic load marks the path *pending*; while it is pending there is no other automatic load
 *   of it, however long after the failure comes (a chunk that hangs for 15 s and then fails, an API
 *   that takes 40 s to give up);
 * - a load of the path that succeeds (the page shown with its data and no error: confirmLoad) clears
 *   the mark, and from then on the 10 s window applies: at most one automatic load per RELOAD_GUARD_MS.
 * Without storage there is no automatic reload at all (docs/decisions/navigation-by-payloads.md, decision 4).
 */

export const RELOAD_GUARD_MS = 10_000;

const KEY_PREFIX = 'site:reload:';
const CONFIRMED = 'ok:';

export interface ReloadGuardEnv {
  storage: () => Storage;
  now: () => number;
  assign: (url: string) => void;
}

/**
 * Loads `url` as a full document unless an automatic load of the same path has not yet been
 * followed by a successful load, or was less than 10 seconds ago. Returns true when the load started.
 */
export function reloadOnce(url: string, env: ReloadGuardEnv): boolean {
  try {
    const storage = env.storage();
    const key = keyFor(url);
    const entry = storage.getItem(key);
    const now = env.now();
    if (entry !== null) {
      // Pending: the load this mark records has not succeeded yet, so the failure is recurring.
      if (!entry.startsWith(CONFIRMED)) return false;
      if (now - Number(entry.slice(CONFIRMED.length)) < RELOAD_GUARD_MS) return false;
    }
    storage.setItem(key, String(now));
  } catch {
    return false;
  }
  env.assign(url);
  return true;
}

/** Records that `url`'s page loaded with its data and no error: a later failure may reload it again. */
export function confirmLoad(url: string, env: ReloadGuardEnv): void {
  try {
    const storage = env.storage();
    const key = keyFor(url);
    const entry = storage.getItem(key);
    if (entry !== null && !entry.startsWith(CONFIRMED)) storage.setItem(key, CONFIRMED + entry);
  } catch {
    // Without storage there is nothing to confirm: no automatic reload happens at all.
  }
}

/** The browser's environment for reloadOnce. */
export function createBrowserReloadEnv(): ReloadGuardEnv {
  return {
    storage: () => window.sessionStorage,
    now: () => Date.now(),
    assign: (url) => window.location.assign(url),
  };
}

// --- internal ---

function keyFor(url: string): string {
  return KEY_PREFIX + new URL(url, 'http://x').pathname;
}
