import { renderToString } from 'react-dom/server';
import { App } from '../../runtime/app.tsx';
import { createNavigation } from '../../runtime/navigation.ts';
import type { Layouts, PageHead, PageModule, RouteDefinition } from '../../runtime/routes.ts';
import { PAYLOAD_VERSION, type BootData, type ClientConfig, type PageError, type SiteData } from '../../runtime/shared/contract.ts';
import { BOOT_SCRIPT_OPEN } from '../../runtime/shared/document-ids.ts';
import { serializeJson } from '../../runtime/shared/serialize.ts';
import type { AssetManifest } from '../bundle/bundle.ts';
import { cspMetaTag, withWebAssembly } from './csp.ts';
import { renderHead } from './head.ts';
import { escapeHtml } from './html.ts';
import type { SharedMarkupCache } from './shared-markup-cache.ts';
import { fillShell, type DocumentShell } from './template.ts';

/** Everything that is the same for every page of one build. */
export interface RenderContext {
  buildId: string;
  /** ISO-8601 build time. */
  prerenderedAt: string;
  site: SiteData;
  /** serializeJson(site), computed once per build. */
  siteJson: string;
  siteName: string;
  language: string;
  baseUrl: string;
  routes: readonly RouteDefinition[];
  layouts: Layouts;
  modules: Map<string, PageModule>;
  assets: AssetManifest;
  shell: DocumentShell;
  client: ClientConfig;
  /** The Content-Security-Policy every page carries (cli/render/csp.ts), or null with --no-csp. */
  csp: string | null;
}

export interface RenderedPage {
  html: string;
  /** Serialised payload (escaped JSON), or null for error pages. */
  payload: string | null;
  head: PageHead;
}

/**
 * Renders one page to its HTML document and payload from the page's data and its serialised form
 * (`dataJson`, which must be serializeJson(data)). Pure: no file system, no network. The data JSON is
 * spliced into the payload and the boot data as it is, so each page's data is serialised once per build.
 * With `sharedMarkup`, the layout's SharedMarkup parts come from that cache (the same bytes, rendered once).
 */
export function renderPage(
  ctx: RenderContext,
  route: RouteDefinition,
  path: string,
  params: Record<string, string>,
  data: unknown,
  dataJson: string,
  sharedMarkup?: SharedMarkupCache,
): RenderedPage {
  const head = route.head(data, params, ctx.site);
  const boot: BootData = { buildId: ctx.buildId, path, routeId: route.id, data, site: ctx.site, error: null, config: ctx.client };
  const payload = `{"v":${PAYLOAD_VERSION},"buildId":${serializeJson(ctx.buildId)},"path":${serializeJson(path)},"data":${dataJson},"prerenderedAt":${serializeJson(ctx.prerenderedAt)}}`;
  return {
    head,
    payload,
    html: renderDocument(
      ctx,
      boot,
      head,
      ctx.assets.pageChunks[route.page] ?? [],
      ctx.baseUrl + (path === '/' ? '/' : path),
      dataJson,
      sharedMarkup,
      route.webAssembly === true,
    ),
  };
}

/** Renders an error page (404.html): the error screen with no route. */
export function renderErrorPage(ctx: RenderContext, error: PageError): RenderedPage {
  const boot: BootData = { buildId: ctx.buildId, path: null, routeId: null, data: null, site: ctx.site, error, config: ctx.client };
  const head: PageHead = {
    title: error.status === 404 ? 'The page could not be found.' : error.message,
    description: error.message,
    noindex: true,
  };
  return { head, payload: null, html: renderDocument(ctx, boot, head, [], ctx.baseUrl + '/404', 'null') };
}

// --- internal ---

function renderDocument(
  ctx: RenderContext,
  boot: BootData,
  head: PageHead,
  pageChunks: readonly string[],
  canonical: string,
  dataJson: string,
  sharedMarkup?: SharedMarkupCache,
  webAssembly = false,
): string {
  const nav = createNavigation({
    routes: ctx.routes,
    boot,
    modules: ctx.modules,
    location: { pathname: boot.path ?? '/404', search: '', hash: '' },
  });
  const render = (): string => renderToString(<App nav={nav} layouts={ctx.layouts} />);
  const markup = sharedMarkup ? sharedMarkup.render(boot.path ?? '/404', render) : render();
  return fillShell(ctx.shell, {
    '<!--app-lang-->': escapeHtml(ctx.language),
    '<!--app-csp-->': ctx.csp ? cspMetaTag(webAssembly ? withWebAssembly(ctx.csp) : ctx.csp) : '',
    '<!--app-head-->': renderHead({ head, siteName: ctx.siteName, canonical, baseUrl: ctx.baseUrl, assets: ctx.assets, pageChunks }),
    '<!--app-html-->': markup,
    '<!--app-boot-->': `${BOOT_SCRIPT_OPEN}${bootJson(ctx, boot, dataJson)}</script>`,
    '<!--app-scripts-->': `<script type="module" src="${escapeHtml(ctx.assets.entry)}"></script>`,
  });
}

/** The boot data as HTML-safe JSON, with the page's and the site's JSON spliced in unchanged. */
function bootJson(ctx: RenderContext, boot: BootData, dataJson: string): string {
  const { data: _data, site: _site, ...rest } = boot;
  return serializeJson(rest).slice(0, -1) + `,"data":${dataJson},"site":${ctx.siteJson}}`;
}
