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

/**
 * wouter's location hook for the app's Router (runtime/app.tsx): the committed path (no query, no hash)
 * from the navigation store, and a function that navigates through it. Site code reads it with wouter's
 * own useLocation, on the server and in the browser alike.
 */
export function useNavigationLocation(): [string, (to: string, options?: { replace?: boolean }) => void] {
  const source = useSource();
  const read = (): string => source.getState().path;
  const path = useSyncExternalStore(source.subscribe, read, read);
  return [path, (to, options) => void source.navigate(to, { replace: options?.replace })];
}

/** wouter's search hook for the app's Router: the committed query string without its `?`. */
export function useNavigationSearch(): string {
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
