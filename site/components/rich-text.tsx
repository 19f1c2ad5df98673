import type { ReactElement } from 'react';

export interface RichTextProps {
  /** HTML from the content backend; the build sanitises it with an allowlist before any page renders. */
  html: string;
  className?: string;
}

/** Editorial HTML (article bodies, page sections) in the site's prose styles. */
export function RichText({ html, className }: RichTextProps): ReactElement | null {
  if (!html.trim()) return null;
  return <div className={className ? `prose ${className}` : 'prose'} dangerouslySetInnerHTML={{ __html: html }} />;
}
