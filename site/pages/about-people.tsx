import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { EditorialBody } from '../components/editorial.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PersonCard } from '../components/people.tsx';
import { groupBy } from '../data/grouping.ts';
import { requireItem } from '../data/require-item.ts';
import type { AboutPeopleResult } from '../queries/people.ts';
import { ABOUT_CRUMB, AboutNav } from '../components/about-nav.tsx';
import { compareText } from '../../runtime/shared/compare.ts';
import { contentId } from '../../runtime/shared/content-ids.ts';

/** `/about/people`: the staff directory, grouped by department in the order the API lists people (by name). */
export default function AboutPeoplePage({ data }: PageProps<AboutPeopleResult>): ReactElement {
  const page = requireItem(data.page, 'The people page');
  const { nodes, totalCount } = data.people;
  // Code-point order, not localeCompare: the build's ICU and the browser's may collate differently.
  const departments = groupBy(nodes, (person) => person.department || 'Staff').sort((a, b) => compareText(a.key, b.key));
  return (
    <article className="editorial-page">
      <PageHeader title={page.title} lead={page.summary} breadcrumbs={[ABOUT_CRUMB, { label: page.title }]} />
      <AboutNav current="/about/people" />
      <EditorialBody page={page} />
      {nodes.length === 0 ? (
        <EmptyState>The directory is empty.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="person" pluralNoun="people" />
          {departments.map((department) => (
            <section key={department.key} className="directory" aria-labelledby={contentId(`department-${department.key}`)}>
              <h2 id={contentId(`department-${department.key}`)} className="directory__title">
                {department.key}
              </h2>
              <div className="directory__grid">
                {department.items.map((person) => (
                  <PersonCard key={person.id} person={person} />
                ))}
              </div>
            </section>
          ))}
        </>
      )}
    </article>
  );
}
