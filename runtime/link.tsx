import type { AnchorHTMLAttributes, ReactElement } from 'react';

export interface LinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  /** A site path such as `/news/some-slug`, with or without query and hash. */
  href: string;
}

/**
 * A link to a page of the site. It is a plain `<a>`: the runtime turns every click on a page link inside
 * the app into a client navigation (runtime/intercept-links.ts), so a link needs no code of its own and
 * works the same before and after hydration. Attributes come in the order wouter's Link wrote them.
 */
export function Link({ href, className, ...rest }: LinkProps): ReactElement {
  return <a {...rest} href={href} className={className} />;
}
