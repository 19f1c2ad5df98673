/**
 * Sample events: 32 in four categories, from June 2026 to June 2027, so that relative to late 2026 some
 * are past and some upcoming. One upcoming symposium is a draft.
 */
import type { MediaRegistry } from './media-refs.ts';
import type { CategoryEntry, EventEntry } from './types.ts';
import { EVENT_CATEGORIES } from './categories.ts';
import { createRandom, hashString, pickAt } from './random.ts';
import { TOPICS, capitalize, composeArticle, composeSentences } from './prose.ts';
import { addDays, addHours, atTime, createSlugScope, daysBetween } from './slugs.ts';

/** What varies by category: titles, timing, place and ticketing. */
export interface EventStyle {
  readonly titles: readonly string[];
  readonly time: string;
  readonly hours: number;
  readonly locations: readonly string[];
  readonly ticketed: boolean;
  readonly practical: string;
}

/** Per-category event styles, keyed by category slug; shared with the scaled content. */
export const EVENT_STYLES: Readonly<Record<string, EventStyle>> = {
  lectures: {
    titles: [
      'Evening lecture: {topic} and its histories',
      'Lecture: what {topic} can teach us',
      'Lecture: the politics of {topic}',
      'Guest lecture on {topic}',
      'Lecture: {topic} after the hype',
    ],
    time: '17:00',
    hours: 2,
    locations: ['Auditorium', 'Auditorium and online', 'Library reading room'],
    ticketed: false,
    practical: 'Free entry, no registration needed. The lecture is in English and lasts about an hour, followed by questions.',
  },
  exhibitions: {
    titles: [
      'Exhibition: new work in {topic}',
      'Exhibition: traces of {topic}',
      'Graduate exhibition: {topic}',
      'Exhibition: {topic} in the project space',
    ],
    time: '10:00',
    hours: 24 * 27 + 6,
    locations: ['Main hall', 'Project space', 'Main hall and courtyard'],
    ticketed: false,
    practical: 'Open Tuesday to Sunday, 10:00 to 17:00. Free entry. Guided tours on Saturdays at 13:00.',
  },
  concerts: {
    titles: ['Concert: music for {topic}', 'Late-night concert: {topic}', 'Listening session: {topic}', 'Concert evening: {topic}'],
    time: '18:30',
    hours: 2,
    locations: ['Black box', 'Black box (standing)', 'Courtyard'],
    ticketed: true,
    practical: 'Tickets are required. Doors open 30 minutes before the concert; the black box is step-free.',
  },
  symposia: {
    titles: ['Symposium on {topic}', 'Two-day symposium: futures of {topic}', 'Symposium: {topic} and the public'],
    time: '08:00',
    hours: 32,
    locations: ['Auditorium and seminar rooms', 'Auditorium'],
    ticketed: true,
    practical: 'Registration is required. Lunch and coffee are included; the programme is published two weeks before.',
  },
};

const COUNT = 32;
const FIRST_DAY = '2026-06-03';
const LAST_DAY = '2027-06-24';

/** Builds the sample events (unsorted; the store sorts by startsAt). */
export function createEvents(media: MediaRegistry): EventEntry[] {
  const slugScopes = new Map(EVENT_CATEGORIES.map((c) => [c.slug, createSlugScope()]));
  const span = daysBetween(FIRST_DAY, LAST_DAY);
  const events: EventEntry[] = [];
  for (let i = 0; i < COUNT; i++) {
    const category = pickAt(EVENT_CATEGORIES, i);
    const topic = pickAt(TOPICS, i * 11 + 3);
    const day = addDays(FIRST_DAY, Math.floor((i * span) / (COUNT - 1)));
    const slugFor = slugScopes.get(category.slug) ?? createSlugScope();
    events.push(createEvent({ index: i, category, topic, day, slugFor, media, status: i === 21 ? 'DRAFT' : 'PUBLISHED' }));
  }
  return events;
}

/** The style for a category slug (lectures for unknown slugs). */
export function eventStyle(categorySlug: string): EventStyle {
  return EVENT_STYLES[categorySlug] ?? (EVENT_STYLES['lectures'] as EventStyle);
}

/** An event title from its category's templates; `index` rotates through them. */
export function eventTitle(categorySlug: string, index: number, topic: string): string {
  return capitalize(pickAt(eventStyle(categorySlug).titles, Math.floor(index / 4)).replace('{topic}', topic));
}

/** The HTML body of an event, seeded by its identity so it can be regenerated on demand. */
export function eventBody(categorySlug: string, index: number, topic: string): string {
  const random = createRandom(hashString(`event-body:${categorySlug}:${index}`));
  return composeArticle(random, topic, { sections: 2, practical: eventStyle(categorySlug).practical });
}

// --- internal ---

interface EventSeed {
  readonly index: number;
  readonly category: CategoryEntry;
  readonly topic: string;
  readonly day: string;
  readonly slugFor: (title: string) => string;
  readonly media: MediaRegistry;
  readonly status: 'PUBLISHED' | 'DRAFT';
}

/** Builds one event from its seed: title from the category's templates, times, place and body. */
function createEvent(seed: EventSeed): EventEntry {
  const { index, category, topic, day, media } = seed;
  const style = eventStyle(category.slug);
  const random = createRandom(hashString(`event:${category.slug}:${index}`));
  const title = eventTitle(category.slug, index, topic);
  const slug = seed.slugFor(title);
  const startsAt = atTime(day, style.time);
  return {
    id: `event-${index + 1}`,
    slug,
    title,
    updatedAt: atTime(addDays(day, -30), '10:00'),
    status: seed.status,
    category,
    startsAt,
    endsAt: addHours(startsAt, style.hours),
    location: `${random.pick(style.locations)}, Northlight Institute`,
    registrationUrl: style.ticketed ? `https://tickets.institute.example/${category.slug}/${slug}` : null,
    summary: composeSentences(random, topic, 2),
    body: eventBody(category.slug, index, topic),
    image: index % 3 !== 2 ? media.image('event', `events/${category.slug}`, slug, `Poster image for “${title}”`) : null,
  };
}
