/**
 * The institute's staff. Names are invented; bios are assembled from each person's role and two research
 * interests, so they read naturally without 25 hand-written paragraphs.
 */
import type { MediaRegistry } from './media-refs.ts';
import type { PersonEntry } from './types.ts';
import { createRandom, hashString, pickAt } from './random.ts';
import { TOPICS } from './prose.ts';
import { slugify } from './slugs.ts';

/** [name, role, department] for every member of staff, in no particular order. */
const STAFF: readonly (readonly [string, string, string])[] = [
  ['Ingrid Solberg-Maas', 'Director', 'Management'],
  ['Tomasz Wieland', 'Head of Research', 'Research'],
  ['Amara Okonkwo-Lind', 'Professor of Sound and Media', 'Research'],
  ['Felix Aarnes', 'Associate Professor of Visual Computing', 'Research'],
  ['Noor Haddad', 'Senior Researcher', 'Research'],
  ['Lena Brandvik', 'Senior Researcher', 'Research'],
  ['Mateo Ferreira Holm', 'Postdoctoral Fellow', 'Research'],
  ['Yuki Arakawa-Dahl', 'Postdoctoral Fellow', 'Research'],
  ['Sigrid Venter', 'PhD Fellow', 'Research'],
  ['Jonas Ekerholt', 'PhD Fellow', 'Research'],
  ['Priya Raman', 'PhD Fellow', 'Research'],
  ['Oskar Thorsrud', 'Artist in Residence', 'Studios and Labs'],
  ['Hanne Kolstad-Reyes', 'Head of Education', 'Education'],
  ['Daniel Osei', 'Lecturer in Interaction Design', 'Education'],
  ['Marit Høegh', 'Lecturer in Art History', 'Education'],
  ['Elias Brenner', 'Studio Technician', 'Studios and Labs'],
  ['Camille Dufresne', 'Archivist', 'Archive and Library'],
  ['Rasmus Tveit', 'Librarian', 'Archive and Library'],
  ['Aisha Benali', 'Head of Communications', 'Communications'],
  ['Viktor Halden', 'Head of Administration', 'Administration'],
  ['Sofia Marchetti', 'Project Coordinator', 'Research'],
  ['Kwame Asante-Berg', 'Researcher', 'Research'],
  ['Elin Sørvik', 'Researcher', 'Research'],
  ['Julian Park', 'Lecturer in Creative Coding', 'Education'],
  ['Teodora Ilić', 'Researcher', 'Research'],
];

const BIO_ENDINGS = [
  'Before joining the institute, {first} worked in museums and independent studios across Europe.',
  '{first} teaches in the Master programme and supervises several doctoral projects.',
  '{first} has exhibited widely and writes regularly for art and technology journals.',
  'Outside the institute, {first} runs a small community workshop for electronics repair.',
  '{first} is a member of the institute’s ethics committee and its open-access working group.',
  '{first} studied fine art and computer science and still moves between the two.',
] as const;

/**
 * Builds the sample staff, each with a 400x400 SVG photo (two people have none, so pages must cope with a
 * missing photo).
 */
export function createPeople(media: MediaRegistry): PersonEntry[] {
  return STAFF.map(([name, role, department], index) => {
    const slug = slugify(name);
    const random = createRandom(hashString(`person:${slug}`));
    const [first = name] = name.split(' ');
    const interests = random.sample(TOPICS, 2);
    const joined = 2008 + random.int(0, 16);
    const bio =
      `${name} works in the ${department} department of the Northlight Institute, with a focus on ` +
      `${interests.join(' and ')}. ${first} joined the institute in ${joined}. ` +
      pickAt(BIO_ENDINGS, index).replace('{first}', first);
    const hasPhoto = index !== 11 && index !== 19;
    return {
      id: `person-${index + 1}`,
      slug,
      name,
      role,
      department,
      email: `${slug.replace(/-/g, '.')}@institute.example`,
      photo: hasPhoto ? media.image('person', 'people', slug, `Portrait of ${name}`) : null,
      bio,
      updatedAt: `2026-0${1 + (index % 9)}-1${index % 10}T08:00:00Z`,
    };
  });
}
