import type { ReactElement } from 'react';
import { useSearch } from 'wouter';
import { Link, type PageProps } from '../../runtime/index.ts';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { PeopleNames } from '../components/people.tsx';
import { useHydrated } from '../components/use-hydrated.ts';
import { levelFromSearch, levelHref, levelsOf } from '../data/course-levels.ts';
import { pageCount, pageHref, pageNumber } from '../data/paging.ts';
import { listTrail } from '../data/trails.ts';
import { plural } from '../format/numbers.ts';
import type { CourseData, CoursesResult } from '../queries/courses.ts';
import { LIST_PAGE_SIZE } from '../queries/document.ts';
import { contentId } from '../../runtime/shared/content-ids.ts';

/**
 * `/courses` and its later pages: the course catalogue by code (the API's order), each with the facts
 * students compare, filterable by level in place: `?level=Master` narrows the list without loading a page.
 */
export default function CoursesPage({ data, params }: PageProps<CoursesResult>): ReactElement {
  const { nodes, totalCount } = data.courses;
  const page = pageNumber(params);
  const path = pageHref('/courses', page);
  const levels = levelsOf(nodes);
  const search = useSearch();
  // The prerendered page shows every course; the browser applies the address's filter once it has hydrated.
  const level = useHydrated() ? levelFromSearch(search, levels) : null;
  const shown = level === null ? nodes : nodes.filter((course) => course.level === level);
  return (
    <div className="list-page">
      <PageHeader
        title="Courses"
        lead="Courses taught at the institute, with their level, credits, period and teachers."
        breadcrumbs={page > 1 ? listTrail('Courses', '/courses', page) : undefined}
      />
      {nodes.length === 0 ? (
        <EmptyState>No courses are listed at the moment.</EmptyState>
      ) : (
        <>
          {levels.length > 1 ? (
            <nav className="category-nav" aria-labelledby="level-filter-label">
              <p id="level-filter-label" className="category-nav__label">
                Filter by level
              </p>
              <ul className="category-nav__list">
                {[null, ...levels].map((choice) => (
                  <li key={choice ?? 'all'}>
                    <Link
                      href={levelHref(path, choice)}
                      className="category-nav__link"
                      aria-current={choice === level ? 'true' : undefined}
                    >
                      {choice ?? 'All levels'}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <div role="status" className="course-filter__status">
            {level === null ? (
              <ListCount shown={nodes.length} total={totalCount} noun="course" first={(page - 1) * LIST_PAGE_SIZE + 1} />
            ) : (
              <p className="list-count">{`${plural(shown.length, `${level} course`)} on this page.`}</p>
            )}
          </div>
          <ul className="course-list">
            {shown.map((course) => (
              <li key={course.id}>
                <Course course={course} />
              </li>
            ))}
          </ul>
          <Pagination base="/courses" page={page} pageCount={pageCount(totalCount, LIST_PAGE_SIZE)} label="Course pages" />
        </>
      )}
    </div>
  );
}

function Course({ course }: { course: CourseData }): ReactElement {
  const titleId = contentId(`course-${course.slug}`);
  return (
    <article className="course" aria-labelledby={titleId} data-level={course.level}>
      <h2 id={titleId} className="course__title">
        <span className="course__code">{course.code}</span> {course.title}
      </h2>
      <dl className="course__facts">
        <div>
          <dt>Level</dt>
          <dd>{course.level}</dd>
        </div>
        <div>
          <dt>Credits</dt>
          <dd>{plural(course.credits, 'ECTS credit')}</dd>
        </div>
        <div>
          <dt>Period</dt>
          <dd>{course.period}</dd>
        </div>
        {course.language ? (
          <div>
            <dt>Language</dt>
            <dd>{course.language}</dd>
          </div>
        ) : null}
        {course.teachers.length > 0 ? (
          <div>
            <dt>{course.teachers.length === 1 ? 'Teacher' : 'Teachers'}</dt>
            <dd>
              <PeopleNames people={course.teachers} linked />
            </dd>
          </div>
        ) : null}
      </dl>
      {course.description ? <p className="course__description">{course.description}</p> : null}
    </article>
  );
}
