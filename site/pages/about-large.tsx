import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { ABOUT_CRUMB, AboutNav } from '../components/about-nav.tsx';
import { PageSection } from '../components/editorial.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { RichText } from '../components/rich-text.tsx';
import { requireItem } from '../data/require-item.ts';
import type { PageResult } from '../queries/pages.ts';
import { contentId } from '../../runtime/shared/content-ids.ts';

/**
 * `/about/about-large`: a long page with a table of contents. The contents are plain hash links, so the
 * browser jumps to the section and the address shows `#section-id` that readers can share.
 */
export default function AboutLargePage({ data }: PageProps<PageResult>): ReactElement {
  const page = requireItem(data.page, 'The page');
  return (
    <article className="editorial-page editorial-page--long">
      <PageHeader title={page.title} lead={page.summary} breadcrumbs={[ABOUT_CRUMB, { label: page.title }]} />
      <AboutNav current="/about/about-large" />
      <div className="long-read">
        {page.sections.length > 0 ? (
          <nav className="toc" aria-labelledby="toc-title">
            <h2 id="toc-title" className="toc__title">
              On this page
            </h2>
            <ol className="toc__list">
              {page.sections.map((section) => (
                <li key={section.id}>
                  <a href={`#${contentId(section.id)}`} className="toc__link">
                    {section.title}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
        ) : null}
        <div className="long-read__content">
          <RichText html={page.body} className="editorial__body" />
          {page.sections.map((section) => (
            <PageSection key={section.id} section={section} />
          ))}
        </div>
      </div>
    </article>
  );
}
