import { createContext, useContext } from 'react';
import type { SiteData } from './shared/contract.ts';

export const SiteContext = createContext<SiteData | null>(null);

/** The site-wide data (navigation, footer, contact) shared by every page. */
export function useSite<T extends SiteData = SiteData>(): T {
  const site = useContext(SiteContext);
  if (!site) throw new Error('useSite() was called outside <App>: render pages through the runtime.');
  return site as T;
}

/** The fields of the site-wide data that the runtime and the build rely on (from `site { name language url }`). */
export function siteInfoOf(site: SiteData): { name: string; language: string; url: string } {
  const info = (site.site ?? {}) as { name?: unknown; language?: unknown; url?: unknown };
  return {
    name: typeof info.name === 'string' ? info.name : '',
    language: typeof info.language === 'string' ? info.language : 'en',
    url: typeof info.url === 'string' ? info.url.replace(/\/+$/, '') : '',
  };
}
