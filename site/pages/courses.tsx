import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PeopleNames } from '../components/people.tsx';
import { plural } from '../format/numbers.ts';
import type { CourseData, CoursesResult } from '../queries/courses.ts';

/** `/courses`: the course catalogue, by code (the API's order), each with the facts students compare. */
export default function CoursesPage({ data }: PageProps<CoursesResult>): ReactElement {
  const { nodes, totalCount } = data.courses;
  return (
    <div className="list-page">
      <PageHeader title="Courses" lead="Courses taught at the institute, with their level, credits, period and teachers." />
      {nodes.length === 0 ? (
        <EmptyState>No courses are listed at the moment.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="course" />
          <ul className="course-list">
            {nodes.map((course) => (
              <li key={course.id}>
                <Course course={course} />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function Course({ course }: { course: CourseData }): ReactElement {
  const titleId = `course-${course.slug}`;
  return (
    <article className="course" aria-labelledby={titleId}>
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
              <PeopleNames people={course.teachers} />
            </dd>
          </div>
        ) : null}
      </dl>
      {course.description ? <p className="course__description">{course.description}</p> : null}
    </article>
  );
}
