import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { EditorialBody } from '../components/editorial.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { requireItem } from '../data/require-item.ts';
import type { PageResult } from '../queries/pages.ts';
import { AboutNav } from '../components/about-nav.tsx';

/** `/about`: the institute's own description. */
export default function AboutPage({ data }: PageProps<PageResult>): ReactElement {
  const page = requireItem(data.page, 'The about page');
  return (
    <article className="editorial-page">
      <PageHeader title={page.title} lead={page.summary} />
      <AboutNav current="/about" />
      <EditorialBody page={page} />
    </article>
  );
}
