/**
 * Sample research projects: twelve hand-named projects, four of them artistic research, each with a team,
 * related publications and an image. Bodies are composed from the phrase banks around each project's topic.
 */
import type { MediaRegistry } from './media-refs.ts';
import type { PersonEntry, ProjectEntry, PublicationEntry } from './types.ts';
import { createRandom, hashString } from './random.ts';
import { composeArticle } from './prose.ts';
import { slugify } from './slugs.ts';

/** [title, topic, summary, startDate, endDate, artistic] */
const PROJECTS: readonly (readonly [string, string, string, string, string | null, boolean])[] = [
  [
    'Listening Machines',
    'machine listening',
    'How do machines hear the city, and what do they miss? A study of automated listening in public space.',
    '2024-01-01',
    null,
    false,
  ],
  [
    'Soft Circuits',
    'textile computing',
    'Craft knowledge meets electronics: weaving, knitting and embroidery as ways of building computers.',
    '2023-08-15',
    '2026-08-14',
    false,
  ],
  [
    'The Harbour Tapes',
    'archival practice',
    'Restoring and re-reading an independent video workshop’s archive from the 1970s and 1980s.',
    '2022-03-01',
    '2026-02-28',
    false,
  ],
  [
    'Bodies and Machines on Stage',
    'robotic choreography',
    'Dancers and industrial robots share a stage to question who leads and who follows.',
    '2025-01-15',
    null,
    true,
  ],
  ['Weather Instruments', 'climate data', 'Turning decades of local weather records into sculpture and sound.', '2024-09-01', null, true],
  [
    'Open Lab Hardware',
    'open hardware',
    'Documenting and publishing the institute’s own studio equipment as open hardware.',
    '2021-06-01',
    '2024-05-31',
    false,
  ],
  [
    'Unreliable Narrators',
    'critical AI',
    'What happens to authorship when a language model writes the wall texts? An exhibition-based study.',
    '2025-09-01',
    null,
    false,
  ],
  [
    'Slow Screens',
    'slow technology',
    'Designing displays that change over hours and days instead of milliseconds.',
    '2020-02-01',
    '2023-12-31',
    false,
  ],
  [
    'Choir of Synthetic Voices',
    'voice synthesis',
    'A choral work for human singers and synthetic voices, developed over three years of rehearsals.',
    '2023-01-10',
    null,
    true,
  ],
  [
    'Maps from Below',
    'participatory mapping',
    'Residents map the sounds, smells and routes of their neighbourhood with simple sensors.',
    '2022-09-01',
    '2025-06-30',
    false,
  ],
  [
    'Afterimages',
    'light and perception',
    'Installations that work with the limits of human vision: flicker, afterimage and colour fatigue.',
    '2026-02-01',
    null,
    true,
  ],
  [
    'Preserving the Ephemeral',
    'digital preservation',
    'Methods for keeping software-based artworks alive as their platforms disappear.',
    '2026-05-01',
    null,
    false,
  ],
];

/** Builds the sample projects; each gets 2–4 people and up to three of the given publications. */
export function createProjects(
  media: MediaRegistry,
  people: readonly PersonEntry[],
  publications: readonly PublicationEntry[],
): ProjectEntry[] {
  const researchers = people.filter((p) => p.department === 'Research' || p.department === 'Studios and Labs');
  return PROJECTS.map(([title, topic, summary, startDate, endDate, artistic], i) => {
    const slug = slugify(title);
    const random = createRandom(hashString(`project:${slug}`));
    const team = random.sample(researchers, random.int(2, 4));
    // Prefer publications by the team; fall back to any, so every project links to some output.
    const byTeam = publications.filter((p) => p.authors.some((a) => team.includes(a)));
    const related = (byTeam.length > 0 ? byTeam : publications).slice(0, random.int(1, 3));
    return {
      id: `project-${i + 1}`,
      slug,
      title,
      updatedAt: `2026-0${1 + (i % 9)}-2${i % 8}T11:00:00Z`,
      status: 'PUBLISHED',
      summary,
      body: `<p><strong>${summary}</strong></p>\n${composeArticle(random, topic, { sections: 3 })}`,
      image: media.image('project', 'research', slug, `Image from the project “${title}”`),
      people: team,
      publications: related,
      startDate,
      endDate,
      artistic,
    };
  });
}
