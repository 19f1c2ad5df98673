import type { ReactElement } from 'react';

/**
 * The header's search field: a plain form that sends `/search?q=…` as a new page load, with or without
 * JavaScript. A page load, not a client-side navigation, because the search page's policy is the only one
 * that allows WebAssembly, and a page keeps the policy it was loaded with. Focus starts loading the search
 * code, so the search page finds it in the cache; before that, nothing of the search loads.
 */
export function SearchField(): ReactElement {
  return (
    <form className="site-search" role="search" aria-label="Site" action="/search" method="get">
      <label htmlFor="site-search-field" className="visually-hidden">
        Search the site
      </label>
      <input
        id="site-search-field"
        className="site-search__field"
        type="search"
        name="q"
        placeholder="Search"
        autoComplete="off"
        enterKeyHint="search"
        onFocus={preload}
      />
      <button type="submit" className="site-search__button">
        Search
      </button>
    </form>
  );
}

// --- internal ---

let preloaded = false;

function preload(): void {
  if (preloaded) return;
  preloaded = true;
  void import('../pages/search.tsx').then(
    (page) => page.preloadSearch(),
    () => void (preloaded = false),
  );
}
