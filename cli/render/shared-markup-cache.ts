import { BuildErrors, createBuildError } from '../errors/errors.ts';
import { randomBytes } from 'node:crypto';
import { createElement, Fragment, type ReactNode } from 'react';
import { withSharedMarkupRenderer, type SharedMarkupRenderer } from '../../runtime/shared-markup.ts';
import { pathHash } from '../../runtime/shared/paths.ts';

/**
 * The build's side of SharedMarkup (runtime/shared-markup.ts): the markup of each cache key, rendered
 * once per renderer and spliced into later pages. Header and footer are about 40% of a page's elements
 * (docs/decisions/shared-markup.md has what it saves).
 *
 * A key's markup is taken from the first page that uses it, and only if splicing it back into that page
 * gives the very bytes that rendering it there gave: markup next to text (React separates adjacent text
 * with a comment), markup that puts something elsewhere in the page (React 19 hoists title, meta and
 * stylesheet links, and preloads images) and anything else that depends on where it is rendered stay
 * uncached, rendered on every page. The first few pages that get a key's markup, and a sample of the
 * others, are rendered in full as well and compared, which catches a key that leaves out something its
 * markup depends on.
 */
export interface SharedMarkupCache {
  /** The markup `render` (one renderToString) gives for the page at `path`, shared parts spliced in. */
  render(path: string, render: () => string): string;
}

export interface SharedMarkupCacheOptions {
  /** One page in about this many, picked by its path, is also rendered in full and compared; 0: none. @default 64 */
  checkEvery?: number;
  /** The first pages that get a key's markup from the cache are also rendered in full and compared: a small site has few sampled pages. @default 4 */
  checkFirst?: number;
}

export function createSharedMarkupCache({ checkEvery = 64, checkFirst = 4 }: SharedMarkupCacheOptions = {}): SharedMarkupCache {
  // Placeholders carry a nonce, so no text from the content can pass for one.
  const nonce = randomBytes(6).toString('hex');
  const ids = new Map<string, number>();
  const keys: string[] = [];
  /** Per id: its markup; null when it cannot be cached; undefined until a page has been checked with it. */
  const markup: (string | null | undefined)[] = [];
  /** Per id: the page its markup came from, for the error when a later page differs. */
  const source: string[] = [];
  /** Per id: pages that got its markup from the cache. */
  const uses: number[] = [];
  const placeholderPattern = new RegExp(`<${TAG} data-n="(\\d+)" data-nonce="${nonce}"></${TAG}>`, 'g');
  const placeholder = (id: number, edge?: 'start' | 'end'): ReactNode =>
    createElement(TAG, { 'data-n': id, 'data-edge': edge, 'data-nonce': nonce });
  const edge = (id: number, which: 'start' | 'end'): string =>
    `<${TAG} data-n="${id}" data-edge="${which}" data-nonce="${nonce}"></${TAG}>`;

  // What the renderer does with each key: set per render by `render` below.
  /** Keys rendered in full even when cached: for comparing with the spliced page. */
  let plain: ReadonlySet<number> | 'all' | null = null;
  let probe: { id: number; as: 'capture' | 'placeholder' } | null = null;
  let unchecked: number[] = [];
  let spliced: number[] = [];
  const renderer: SharedMarkupRenderer = (key, children) => {
    let id = ids.get(key);
    if (id === undefined) {
      id = keys.length;
      ids.set(key, id);
      keys.push(key);
      markup.push(undefined);
      uses.push(0);
    }
    if (probe?.id === id)
      return probe.as === 'capture'
        ? createElement(Fragment, null, placeholder(id, 'start'), children, placeholder(id, 'end'))
        : placeholder(id);
    const known = markup[id];
    if (typeof known === 'string' && plain !== 'all' && !plain?.has(id)) {
      spliced.push(id);
      return placeholder(id);
    }
    if (known === undefined && !unchecked.includes(id)) unchecked.push(id);
    return children;
  };
  const renderWith = (render: () => string): string => withSharedMarkupRenderer(renderer, render);
  const renderPlain = (which: ReadonlySet<number> | 'all', render: () => string): string => {
    plain = which;
    try {
      return renderWith(render);
    } finally {
      plain = null;
    }
  };
  const fill = (html: string): string =>
    html.includes(`<${TAG} `)
      ? html.replace(placeholderPattern, (_, n: string) => {
          const part = markup[Number(n)];
          if (typeof part !== 'string') throw new Error(`Internal error: no markup for SharedMarkup '${keys[Number(n)]}'.`);
          return part;
        })
      : html;

  /** Takes the markup of `id` from this page, if splicing it back gives `expected` (the page rendered with it in place). */
  const learn = (id: number, path: string, expected: string, render: () => string): void => {
    try {
      probe = { id, as: 'capture' };
      const captured = renderWith(render);
      const startMark = edge(id, 'start');
      const start = captured.indexOf(startMark);
      const end = captured.indexOf(edge(id, 'end'));
      markup[id] = null;
      if (start < 0 || end < start) return;
      const part = fill(captured.slice(start + startMark.length, end));
      probe = { id, as: 'placeholder' };
      const withPlaceholder = renderWith(render);
      markup[id] = part;
      if (fill(withPlaceholder) !== expected) markup[id] = null;
      else source[id] = path;
    } finally {
      probe = null;
    }
  };

  return {
    render(path, render) {
      unchecked = [];
      spliced = [];
      const html = fill(renderWith(render));
      for (const id of unchecked) learn(id, path, html, render);
      const used = [...new Set(spliced)];
      // Every key's uses are counted, even when an earlier one already asks for a check.
      const early = used.map((id) => ++uses[id]! <= checkFirst).includes(true);
      // Which pages are checked depends on the page (its path's hash), not on the thread or the order.
      if (used.length > 0 && (early || (checkEvery > 0 && pathHash(path) % checkEvery === 0))) {
        const full = renderPlain('all', render);
        if (full !== html) {
          // The keys whose part, rendered here, makes the difference.
          const wrong = used.filter((id) => fill(renderPlain(new Set([id]), render)) !== html);
          const named = (wrong.length > 0 ? wrong : used).map((id) => `'${keys[id]}' (markup from ${source[id]})`).join(', ');
          throw createBuildError(BuildErrors.SharedMarkupMismatch, [named, path]);
        }
      }
      return html;
    },
  };
}

// --- internal ---

/** The placeholder element's name: a custom element, which React writes out as it is. */
const TAG = 'site-shared-markup';
