/**
 * Sample courses: twenty hand-named courses across Bachelor, Master, PhD and open (non-degree) levels,
 * each taught by one or two members of staff.
 */
import type { CourseEntry, PersonEntry } from './types.ts';
import { createRandom, hashString, pickAt } from './random.ts';
import { createSlugScope } from './slugs.ts';

/** [title, level, credits, period, language] */
const COURSES: readonly (readonly [string, string, number, string, string])[] = [
  ['Introduction to creative coding', 'Bachelor', 10, 'Autumn 2026', 'English'],
  ['Histories of media art', 'Bachelor', 10, 'Autumn 2026', 'English'],
  ['Sound and space', 'Bachelor', 15, 'Spring 2027', 'English'],
  ['Electronics for artists', 'Bachelor', 10, 'Spring 2027', 'English'],
  ['Image, camera, algorithm', 'Bachelor', 15, 'Autumn 2026', 'English'],
  ['Studio practice 1', 'Bachelor', 30, 'Full year 2026–27', 'Norwegian'],
  ['Critical theory of technology', 'Master', 10, 'Autumn 2026', 'English'],
  ['Interaction and the body', 'Master', 15, 'Autumn 2026', 'English'],
  ['Machine learning for the arts', 'Master', 15, 'Spring 2027', 'English'],
  ['Curating technology', 'Master', 10, 'Spring 2027', 'English'],
  ['Archives and preservation', 'Master', 10, 'Autumn 2026', 'English'],
  ['Master studio and thesis', 'Master', 30, 'Full year 2026–27', 'English'],
  ['Methods in artistic research', 'PhD', 10, 'Autumn 2026', 'English'],
  ['Writing the practice', 'PhD', 5, 'Spring 2027', 'English'],
  ['Research ethics in art and technology', 'PhD', 5, 'Autumn 2026', 'English'],
  ['Doctoral seminar', 'PhD', 10, 'Full year 2026–27', 'English'],
  ['Open studio: live coding for beginners', 'Open', 5, 'Autumn 2026', 'English'],
  ['Listening walks', 'Open', 5, 'Spring 2027', 'Norwegian'],
  ['Repair café: electronics', 'Open', 5, 'Spring 2027', 'English'],
  ['Digital photography and its archives', 'Open', 5, 'Autumn 2026', 'English'],
];

const LEVEL_CODES: Readonly<Record<string, string>> = { Bachelor: 'B', Master: 'M', PhD: 'D', Open: 'O' };

const DESCRIPTIONS = [
  'The course combines short lectures with weekly studio assignments and ends with a public presentation.',
  'Students work in small groups and keep a reflective journal that forms part of the assessment.',
  'Reading seminars alternate with hands-on sessions in the institute’s labs.',
  'Guest artists and researchers visit regularly to discuss their own work.',
  'No previous experience is required; all equipment is provided by the institute.',
  'Assessment is by portfolio and a short written essay.',
] as const;

/** Builds the sample courses; teachers are drawn from the education and research staff. */
export function createCourses(people: readonly PersonEntry[]): CourseEntry[] {
  const slugFor = createSlugScope();
  const teachers = people.filter((p) => /Professor|Lecturer|Head of Education|Senior Researcher|Postdoctoral/.test(p.role));
  const counters = new Map<string, number>();
  return COURSES.map(([title, level, credits, period, language], i) => {
    const random = createRandom(hashString(`course:${i}`));
    const n = (counters.get(level) ?? 0) + 1;
    counters.set(level, n);
    const [first, second] = random.sample(DESCRIPTIONS, 2);
    return {
      id: `course-${i + 1}`,
      slug: slugFor(title),
      title,
      updatedAt: `2026-0${3 + (i % 6)}-0${1 + (i % 9)}T08:00:00Z`,
      status: 'PUBLISHED',
      code: `NLI-${LEVEL_CODES[level] ?? 'X'}${100 + n * 10 + (i % 3)}`,
      level,
      credits,
      period,
      language,
      description: `${title} is a ${credits}-credit ${level === 'Open' ? 'open course' : `${level} course`}. ${first} ${second}`,
      teachers: random.int(0, 2) === 0 ? random.sample(teachers, 2) : [pickAt(teachers, i * 3)],
    };
  });
}
