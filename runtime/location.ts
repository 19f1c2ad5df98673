import { createContext, useContext, useSyncExternalStore } from 'react';
import type { NavigateOptions } from './navigation.ts';
import type { NavigationState } from './navigation-state.ts';

/** Where the app is: the committed state and the way to change it. The app provides its navigation. */
export interface LocationSource {
  getState(): Pick<NavigationState, 'path' | 'search'>;
  subscribe(listener: () => void): () => void;
  navigate(to: string, options?: NavigateOptions): Promise<void>;
}

export const LocationContext = createContext<LocationSource | null>(null);

/** The committed path (no query, no hash) and a function that navigates, as wouter's useLocation gives them. */
export function useLocation(): [string, (to: string, options?: { replace?: boolean }) => void] {
  const source = useSource();
  const read = (): string => source.getState().path;
  const path = useSyncExternalStore(source.subscribe, read, read);
  return [path, (to, options) => void source.navigate(to, { replace: options?.replace })];
}

/** The committed query string without its `?`, as wouter's useSearch gives it. */
export function useSearch(): string {
  const source = useSource();
  const read = (): string => source.getState().search.replace(/^\?/, '');
  return useSyncExternalStore(source.subscribe, read, read);
}

// --- internal ---

function useSource(): LocationSource {
  const source = useContext(LocationContext);
  if (!source) throw new Error('A location hook was called outside <App>: render pages through the runtime.');
  return source;
}
