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
export function Link(props: LinkProps): ReactElement {
  // A copy by hand rather than `{ href, className, ...rest }`: V8 runs object rest through a slow runtime
  // call (a spread is fast), and a build renders hundreds of thousands of links.
  const attributes: Record<string, unknown> = {};
  for (const key in props) if (key !== 'href' && key !== 'className') attributes[key] = props[key as keyof LinkProps];
  attributes.href = props.href;
  attributes.className = props.className;
  return <a {...attributes} />;
}
