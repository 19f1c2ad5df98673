import type { ReactElement } from 'react';
import type { PageData, PageSectionData } from '../queries/pages.ts';
import { contentId } from '../../runtime/shared/content-ids.ts';
import { RichText } from './rich-text.tsx';

/**
 * A page section as a labelled `<section>` whose id is the anchor the table of contents links to. The id
 * comes from the backend, so it goes through contentId like every id built from content.
 */
export function PageSection({ section }: { section: PageSectionData }): ReactElement {
  const titleId = contentId(`${section.id}-title`);
  return (
    <section id={contentId(section.id)} className="page-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="page-section__title">
        {section.title}
      </h2>
      <RichText html={section.body} />
    </section>
  );
}

/** An editorial page's body followed by its sections. */
export function EditorialBody({ page }: { page: PageData }): ReactElement {
  return (
    <div className="editorial">
      <RichText html={page.body} className="editorial__body" />
      {page.sections.map((section) => (
        <PageSection key={section.id} section={section} />
      ))}
    </div>
  );
}

/** Plain-text fields (intros, abstracts) as paragraphs: blank lines in the text separate them. */
export function Paragraphs({ text, className }: { text: string; className?: string }): ReactElement | null {
  const paragraphs = text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (paragraphs.length === 0) return null;
  return (
    <div className={className}>
      {paragraphs.map((paragraph, i) => (
        <p key={i}>{paragraph}</p>
      ))}
    </div>
  );
}
