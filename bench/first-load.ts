import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readBuild } from '../cli/output/output.ts';
import type { BootData } from '../runtime/shared/contract.ts';
import { BOOT_ELEMENT_ID } from '../runtime/shared/document-ids.ts';
import { htmlFileFor } from '../runtime/shared/paths.ts';

/**
 * First-load JavaScript (issue 9, target 6): what a visitor's browser downloads before a page can hydrate.
 * One measurement for the bench (bench/client.ts) and the test suite (tests/integration/first-load-size.test.ts),
 * so the figure docs/performance.md quotes is the figure the budget checks.
 */

/** The budget: React and ReactDOM included, Sentry excluded (it loads after the first render). */
export const FIRST_LOAD_BUDGET_BYTES = 78 * 1024;

/** The route id given to 404.html, which serves every unknown path. */
export const NOT_FOUND_PAGE = '(404)';

export interface FirstLoad {
  /** Route id, or NOT_FOUND_PAGE. */
  route: string;
  /** The page measured: the first prerendered path of the route, or `/404.html`. */
  path: string;
  /** Every script the HTML loads or modulepreloads, root-relative, in document order. */
  scripts: string[];
  /** Bytes of the React chunk (React, ReactDOM, scheduler), gzipped. */
  react: number;
  /** Bytes of every other script, each gzipped on its own. */
  rest: number;
  /** react + rest. */
  total: number;
}

/**
 * The first-load JavaScript of one page per route (the first prerendered path of each) and of 404.html,
 * read from a built site: each script the HTML loads or modulepreloads, gzipped at level 9 on its own, as
 * a server that compresses would send it. Ordered as the build's prerendered paths.
 */
export async function firstLoadByRoute(outDir: string): Promise<FirstLoad[]> {
  const { meta } = await readBuild(outDir);
  const sizes = new Map<string, Promise<number>>();
  const gzipped = (script: string): Promise<number> => {
    let size = sizes.get(script);
    if (!size) {
      size = readFile(join(outDir, script)).then((bytes) => gzipSync(bytes, { level: 9 }).length);
      sizes.set(script, size);
    }
    return size;
  };

  const pages: { route: string; path: string; html: string }[] = [];
  const seen = new Set<string>();
  for (const path of meta.prerendered) {
    const html = await readFile(join(outDir, htmlFileFor(path)), 'utf8');
    const route = routeIdOf(html) ?? path;
    if (seen.has(route)) continue;
    seen.add(route);
    pages.push({ route, path, html });
  }
  pages.push({ route: NOT_FOUND_PAGE, path: '/404.html', html: await readFile(join(outDir, '404.html'), 'utf8') });

  return Promise.all(
    pages.map(async ({ route, path, html }) => {
      const scripts = scriptsOf(html);
      let react = 0;
      let rest = 0;
      for (const script of scripts) {
        const size = await gzipped(script);
        if (isReactChunk(script)) react += size;
        else rest += size;
      }
      return { route, path, scripts, react, rest, total: react + rest };
    }),
  );
}

/** The scripts an HTML document loads (`<script src>`) or preloads (`<link rel="modulepreload">`), each once. */
export function scriptsOf(html: string): string[] {
  const found = html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"|<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g);
  return [...new Set([...found].map((m) => (m[1] ?? m[2])!))];
}

// --- internal ---

/** rollup.config.ts puts React, ReactDOM and the scheduler into `react-{hash}.js`. */
function isReactChunk(script: string): boolean {
  return /\/react-[^/]+\.js$/.test(script);
}

function routeIdOf(html: string): string | null {
  const start = html.indexOf(`id="${BOOT_ELEMENT_ID}">`);
  if (start < 0) return null;
  const json = html.slice(html.indexOf('>', start) + 1, html.indexOf('</script>', start));
  return (JSON.parse(json) as BootData).routeId;
}
