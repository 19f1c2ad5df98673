import pLimit from 'p-limit';
import { isSlowConnection } from './connection.ts';
import { isPageLink } from './intercept-links.ts';

/** Route preloading runs at most 5 loads at a time (docs/decisions/navigation-by-payloads.md). */
export const PREFETCH_CONCURRENCY = 5;

export interface PrefetchOptions {
  root: HTMLElement;
  /** Loads a path's chunk and payload, passing each load through `schedule`. */
  preload: (path: string, schedule: <T>(load: () => Promise<T>) => Promise<T>) => Promise<void>;
}

/**
 * Prefetches internal links when they become visible and on hover or focus, once per path, with
 * at most 5 loads in flight; nothing at all on Save-Data or 2g connections.
 */
export function startPrefetch({ root, preload }: PrefetchOptions): () => void {
  // Observable for tests and tools: whether prefetching started, once the decision is made.
  const off = isSlowConnection() || typeof IntersectionObserver === 'undefined';
  document.documentElement.dataset.prefetch = off ? 'off' : 'on';
  if (off) return () => undefined;
  const limit = pLimit(PREFETCH_CONCURRENCY);
  const schedule = <T>(load: () => Promise<T>): Promise<T> => limit(load);
  const done = new Set<string>();

  const prefetch = (anchor: HTMLAnchorElement): void => {
    if (!isPageLink(anchor)) return;
    const path = new URL(anchor.href).pathname;
    if (done.has(path) || path === window.location.pathname) return;
    done.add(path);
    void preload(path, schedule).catch(() => undefined);
  };

  const visible = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting && entry.intersectionRatio <= 0) continue;
      visible.unobserve(entry.target);
      prefetch(entry.target as HTMLAnchorElement);
    }
  });
  const observeLinks = (scope: ParentNode): void => scope.querySelectorAll('a[href]').forEach((a) => visible.observe(a));
  const added = new MutationObserver((records) => {
    for (const record of records)
      record.addedNodes.forEach(
        (node) => node instanceof Element && (node.matches('a[href]') ? visible.observe(node) : observeLinks(node)),
      );
  });
  const onIntent = (event: Event): void => {
    const anchor = (event.target as Element | null)?.closest?.('a[href]');
    if (anchor instanceof HTMLAnchorElement) prefetch(anchor);
  };

  observeLinks(root);
  added.observe(root, { childList: true, subtree: true });
  root.addEventListener('pointerover', onIntent, { passive: true });
  root.addEventListener('focusin', onIntent);
  return () => {
    visible.disconnect();
    added.disconnect();
    root.removeEventListener('pointerover', onIntent);
    root.removeEventListener('focusin', onIntent);
  };
}
