import { hydrateRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { createBrowserEffects } from './browser-effects.ts';
import { createNavigation } from './navigation.ts';
import { createPageError } from './page-error.ts';
import { interceptLinks } from './intercept-links.ts';
import { createPayloadLoader } from './payload.ts';
import { createBrowserReloadEnv } from './reload-guard.ts';
import type { Layouts, PageModule, RouteDefinition } from './routes.ts';
import { BOOT_ELEMENT_ID, APP_ELEMENT_ID } from './shared/document-ids.ts';
import { PAYLOAD_VERSION, type BootData } from './shared/contract.ts';

export interface HydrateOptions {
  routes: readonly RouteDefinition[];
  layouts: Layouts;
}

/**
 * Starts the app on a prerendered page: reads the inlined boot data, loads the current page's chunk
 * (so the first client render matches the server's markup), then hydrates.
 */
export async function hydrate({ routes, layouts }: HydrateOptions): Promise<void> {
  const boot = readBootData();
  const modules = new Map<string, PageModule>();
  const current = routes.find((r) => r.id === boot.routeId);
  if (current) modules.set(current.id, await current.load());

  const payloads = createPayloadLoader(boot.buildId);
  if (boot.path && !boot.error) {
    payloads.prime({ v: PAYLOAD_VERSION, buildId: boot.buildId, path: boot.path, data: boot.data, prerenderedAt: '' });
  }
  const nav = createNavigation({
    routes,
    boot,
    modules,
    location: window.location,
    payloads,
    effects: createBrowserEffects(routes, boot.site, createBrowserReloadEnv()),
  });
  // Back and Forward: the address bar already shows the target.
  window.addEventListener('popstate', () => void nav.navigate(location.pathname + location.search + location.hash, { pop: true }));

  const container = document.getElementById(APP_ELEMENT_ID);
  if (!container) throw new Error(`The page has no #${APP_ELEMENT_ID} element to hydrate: check templates/document.html.`);
  interceptLinks(container, (href) => void nav.navigate(href));
  hydrateRoot(container, <App nav={nav} layouts={layouts} />, {
    onUncaughtError: (error) => nav.showError(createPageError(error)),
    onRecoverableError: (error) => console.error('Recoverable render error:', error),
  });
}

// --- internal ---

function readBootData(): BootData {
  const text = document.getElementById(BOOT_ELEMENT_ID)?.textContent;
  if (!text) throw new Error(`The page has no #${BOOT_ELEMENT_ID} data: it was not written by this site's build.`);
  return JSON.parse(text) as BootData;
}
