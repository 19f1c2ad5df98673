/**
 * Plain `<a>` elements inside the app (rich text from the CMS, markup written without <Link>)
 * navigate client-side too, so every internal page link fetches a payload instead of a document.
 * Links to files (a path with an extension), other origins, new windows and downloads are left alone.
 */
export function interceptLinks(root: HTMLElement, navigate: (href: string) => void): () => void {
  const onClick = (event: MouseEvent): void => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = (event.target as Element | null)?.closest?.('a');
    if (!anchor || !root.contains(anchor) || !isPageLink(anchor)) return;
    event.preventDefault();
    const url = new URL(anchor.href);
    // A same-origin path never starts with `//` when handed on: that would read as another host.
    navigate(url.pathname.replace(/^\/{2,}/, '/') + url.search + url.hash);
  };
  root.addEventListener('click', onClick);
  return () => root.removeEventListener('click', onClick);
}

/** True for a same-origin link to a page of this site. */
export function isPageLink(anchor: HTMLAnchorElement): boolean {
  if (!anchor.href || anchor.hasAttribute('download') || (anchor.target && anchor.target !== '_self')) return false;
  if (/\bexternal\b/.test(anchor.rel)) return false;
  const url = new URL(anchor.href);
  if (url.origin !== window.location.origin) return false;
  // Same document, only the hash differs: let the browser scroll.
  if (url.pathname === window.location.pathname && url.search === window.location.search && url.hash) return false;
  return !/\.[a-z0-9]{1,8}$/i.test(url.pathname);
}
