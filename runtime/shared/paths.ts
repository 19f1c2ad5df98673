import { ASSETS_DIR } from './contract.ts';

/**
 * URL path rules shared by the build and the browser. Pages live at paths with no trailing slash
 * (except `/`); each is written as `{path}/index.html` with its data beside it in `_payload.json`.
 */

/** `/news/` → `/news`, `news` → `/news`, `` → `/`; collapses repeated slashes. */
export function normalizePath(path: string): string {
  const collapsed = ('/' + path).replace(/\/{2,}/g, '/');
  return collapsed.length > 1 && collapsed.endsWith('/') ? collapsed.slice(0, -1) : collapsed;
}

/** Relative file that holds a page's HTML: `/` → `index.html`, `/news/a` → `news/a/index.html`. */
export function htmlFileFor(path: string): string {
  const p = normalizePath(path);
  return p === '/' ? 'index.html' : `${p.slice(1)}/index.html`;
}

/** Relative file that holds a page's payload: `/news` → `news/_payload.json`. */
export function payloadFileFor(path: string): string {
  const p = normalizePath(path);
  return p === '/' ? '_payload.json' : `${p.slice(1)}/_payload.json`;
}

/** URL fetched on client navigation: `/news/_payload.json?{buildId}` (the query busts caches per build). */
export function payloadUrlFor(path: string, buildId: string): string {
  return `/${payloadFileFor(path)}?${encodeURIComponent(buildId)}`;
}

/** Relative file of a build's route-rules manifest. */
export function metaFileFor(buildId: string): string {
  return `${ASSETS_DIR}/builds/meta/${buildId}.json`;
}

/** Relative file of the latest-build pointer. */
export const LATEST_FILE = `${ASSETS_DIR}/builds/latest.json`;

/** FNV-1a of a path over its UTF-16 code units: a number that depends on the path alone, the same on every run and machine. */
export function pathHash(path: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) hash = Math.imul(hash ^ path.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}
