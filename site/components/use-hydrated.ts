import { useSyncExternalStore } from 'react';

const subscribe = (): (() => void) => () => {};

/**
 * False while the server renders and while the browser hydrates, true after. State that only the browser
 * knows (the query string of a prerendered page) is applied after hydration, so the first client render
 * matches the server's markup and React re-renders with it straight after, without a mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
