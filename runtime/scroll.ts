import type { NavigateOptions, NavigationState } from './navigation.ts';

/**
 * Scroll positions per history entry, and the rules for where a committed navigation scrolls:
 * Back/Forward restore the saved position; a hash scrolls to its anchor (honouring
 * scroll-margin-top, as scrollIntoView does); a query-only change keeps the position;
 * any other new path goes to the top.
 */
export interface ScrollMemory {
  /** Records the current position against the active entry, then gives the new entry a key. */
  beforePush(): { key: string };
  /** The state object that keeps the active entry's key on replaceState. */
  currentState(): { key: string };
  /** Applies the scroll rules once the committed state has rendered. */
  apply(state: NavigationState, previous: NavigationState, options: NavigateOptions): void;
}

export function createScrollMemory(): ScrollMemory {
  const positions = new Map<string, { x: number; y: number }>();
  let activeKey = readKey() ?? newKey();
  if (readKey() !== activeKey) history.replaceState({ ...(history.state as object | null), key: activeKey }, '');

  let frame = 0;
  window.addEventListener(
    'scroll',
    () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        positions.set(activeKey, { x: window.scrollX, y: window.scrollY });
      });
    },
    { passive: true },
  );

  return {
    beforePush() {
      positions.set(activeKey, { x: window.scrollX, y: window.scrollY });
      // The browser must not restore positions on its own once we manage them.
      history.scrollRestoration = 'manual';
      return { key: newKey() };
    },
    currentState: () => ({ key: activeKey }),
    apply(state, previous, options) {
      activeKey = readKey() ?? activeKey;
      const saved = options.pop ? positions.get(activeKey) : undefined;
      if (saved) window.scrollTo(saved.x, saved.y);
      else if (state.hash) scrollToHash(state.hash, state.path === previous.path);
      else if (state.path !== previous.path || state.error !== previous.error) window.scrollTo(0, 0);
    },
  };
}

/** Scrolls to the element a hash names; smooth only within a page, and never under reduced motion. */
export function scrollToHash(hash: string, samePage: boolean): void {
  let id = hash.slice(1);
  try {
    id = decodeURIComponent(id);
  } catch {
    // Keep the raw id.
  }
  // A link made before content ids had their prefix (`#history`) still finds `#c-history`.
  const element = document.getElementById(id) ?? document.getElementById(`c-${id}`);
  if (!element) return;
  const smooth = samePage && !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  element.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'instant' });
}

// --- internal ---

function readKey(): string | undefined {
  const key = (history.state as { key?: unknown } | null)?.key;
  return typeof key === 'string' ? key : undefined;
}

function newKey(): string {
  return Math.random().toString(36).slice(2, 10);
}
