/**
 * Record classes for the scaled content. Only what sorting and lookups need (slug, title, dates) is
 * stored; summaries, bodies and derived fields are getters that recompose the text from a per-item
 * seed on each read. That keeps 50,000 pages in a few megabytes, and a read costs the same as a stored
 * field for the 500 items of one page.
 */
import type {
  CategoryEntry,
  DocumentEntry,
  EventEntry,
  ImageRef,
  NewsEntry,
  PersonEntry,
  ProjectEntry,
  PublicationEntry,
  Status,
} from './content/types.ts';
import { eventBody, eventStyle } from './content/events.ts';
import { composeArticle, composeSentences } from './content/prose.ts';
import { createRandom, hashString, pickAt } from './content/random.ts';
import { addHours, atTime } from './content/slugs.ts';

/** Shared lists the lazy fields draw from (one object for all records). */
export interface ScaleContext {
  readonly people: readonly PersonEntry[];
  readonly publications: PublicationEntry[];
  readonly tags: readonly string[];
}

/** A scaled news item. */
export class ScaledNews implements NewsEntry {
  constructor(
    readonly index: number,
    readonly slug: string,
    readonly title: string,
    readonly topic: string,
    readonly date: string,
    readonly image: ImageRef | null,
    readonly status: Status,
    private readonly context: ScaleContext,
  ) {}
  get id(): string {
    return `news-${this.index + 1}`;
  }
  get updatedAt(): string {
    return `${this.date}T12:00:00Z`;
  }
  get summary(): string {
    return composeSentences(seeded('news-summary', this.index), this.topic, 2);
  }
  get body(): string {
    return composeArticle(seeded('news-body', this.index), this.topic, { sections: 2 + (this.index % 2) });
  }
  get tags(): readonly string[] {
    return [this.topic, pickAt(this.context.tags, this.index)];
  }
}

/** A scaled event. */
export class ScaledEvent implements EventEntry {
  constructor(
    readonly index: number,
    readonly slug: string,
    readonly title: string,
    readonly topic: string,
    readonly category: CategoryEntry,
    readonly startsAt: string,
    readonly image: ImageRef | null,
    readonly status: Status,
  ) {}
  get id(): string {
    return `event-${this.index + 1}`;
  }
  get updatedAt(): string {
    return addHours(this.startsAt, -24 * 30);
  }
  get endsAt(): string {
    return addHours(this.startsAt, eventStyle(this.category.slug).hours);
  }
  get location(): string {
    return `${pickAt(eventStyle(this.category.slug).locations, this.index)}, Northlight Institute`;
  }
  get registrationUrl(): string | null {
    return eventStyle(this.category.slug).ticketed ? `https://tickets.institute.example/${this.category.slug}/${this.slug}` : null;
  }
  get summary(): string {
    return composeSentences(seeded('event-summary', this.index), this.topic, 2);
  }
  get body(): string {
    return eventBody(this.category.slug, this.index, this.topic);
  }
}

/** A scaled publication; authors come from the shared people list. */
export class ScaledPublication implements PublicationEntry {
  constructor(
    readonly index: number,
    readonly slug: string,
    readonly title: string,
    readonly topic: string,
    readonly category: CategoryEntry,
    readonly year: number,
    readonly file: DocumentEntry | null,
    readonly status: Status,
    private readonly context: ScaleContext,
  ) {}
  get id(): string {
    return `publication-${this.index + 1}`;
  }
  get updatedAt(): string {
    return atTime(`${this.year}-06-01`, '09:00');
  }
  get authors(): readonly PersonEntry[] {
    return spread(this.context.people, this.index, 1 + (this.index % 3));
  }
  get abstract(): string {
    return composeSentences(seeded('publication-abstract', this.index), this.topic, 4);
  }
  get doi(): string | null {
    return this.index % 4 === 3 ? null : `10.5555/northlight.${this.year}.${this.index + 1}`;
  }
  get publisher(): string {
    return pickAt(['Northlight Press', 'Journal of Art and Computation', 'Media Practice Review'], this.index);
  }
}

/** A scaled research project; people and publications come from the shared lists. */
export class ScaledProject implements ProjectEntry {
  constructor(
    readonly index: number,
    readonly slug: string,
    readonly title: string,
    readonly topic: string,
    readonly startDate: string,
    readonly image: ImageRef | null,
    private readonly context: ScaleContext,
  ) {}
  readonly status: Status = 'PUBLISHED';
  get id(): string {
    return `project-${this.index + 1}`;
  }
  get updatedAt(): string {
    return atTime(this.startDate, '11:00');
  }
  get summary(): string {
    return composeSentences(seeded('project-summary', this.index), this.topic, 2);
  }
  get body(): string {
    return composeArticle(seeded('project-body', this.index), this.topic, { sections: 3 });
  }
  get people(): readonly PersonEntry[] {
    return spread(this.context.people, this.index * 3, 2 + (this.index % 3));
  }
  get publications(): readonly PublicationEntry[] {
    return spread(this.context.publications, this.index * 2, 1 + (this.index % 3));
  }
  get endDate(): string | null {
    return this.index % 3 === 0 ? null : `${Number(this.startDate.slice(0, 4)) + 3}${this.startDate.slice(4)}`;
  }
  get artistic(): boolean {
    return this.index % 4 === 1;
  }
}

// --- internal ---

function seeded(kind: string, index: number): ReturnType<typeof createRandom> {
  return createRandom(hashString(`${kind}:${index}`));
}

/** `count` items spaced through `items` starting at `start`: stable, distinct while count <= length. */
function spread<T>(items: readonly T[], start: number, count: number): T[] {
  if (items.length === 0) return [];
  const step = Math.max(1, Math.floor(items.length / count));
  const out: T[] = [];
  for (let i = 0; i < Math.min(count, items.length); i++) out.push(pickAt(items, start + i * step));
  return out;
}
