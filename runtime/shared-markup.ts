import type { ReactNode } from 'react';

/**
 * A part of the layout whose markup is the same on many pages (the header for one active section, the
 * footer): `cacheKey` names everything its markup depends on within one build. In the browser it is its
 * children. During a build, the page renderer (cli/render/shared-markup-cache.ts) renders each key's children
 * once, checks that splicing that markup into a page gives the very bytes rendering it there would, and
 * splices it into every later page with that key instead of rendering it again.
 *
 * A key that leaves out something the children read (the current path, say) gives later pages the
 * first page's markup: the build compares the first pages that reuse a key, and a sample of the others,
 * against a full render and fails, naming the key, when they differ.
 */
export function SharedMarkup({ cacheKey, children }: { cacheKey: string; children: ReactNode }): ReactNode {
  return renderShared ? renderShared(cacheKey, children) : children;
}

/** How the build renders a SharedMarkup while it renders a page; null in the browser and outside a page render. */
export type SharedMarkupRenderer = (cacheKey: string, children: ReactNode) => ReactNode;

let renderShared: SharedMarkupRenderer | null = null;

/** Renders with `renderer` set for every SharedMarkup inside `render` (synchronous: one page render). */
export function withSharedMarkupRenderer<T>(renderer: SharedMarkupRenderer, render: () => T): T {
  const outer = renderShared;
  renderShared = renderer;
  try {
    return render();
  } finally {
    renderShared = outer;
  }
}
