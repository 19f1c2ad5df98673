/**
 * Live edits for the embedded backend: editors add, change and delete items through GraphQL mutations
 * (site/schema.graphql `createContent`, `updateContent`, `deleteContent`) while the server runs, and every
 * change goes into a change log that the `changes` query reads (change-feed.ts). Items are edited in place,
 * so every item that refers to one (a publication's authors, a project's publications) sees the edit, and
 * the store is indexed again after each edit (sorting 10,000 items takes a few milliseconds). Home and
 * Site, of which there is one each, can be changed (their ids are `home` and `site`), not added or deleted.
 */
import type { GraphQLSchema } from 'graphql';
import type { CategoryEntry, Content, Status } from './content/types.ts';
import { checkFields, EditError, type References } from './edit-fields.ts';
import { createContentStore, type ContentStore } from './store.ts';

/** A content type editors may change, by its GraphQL type name. */
export type EditableType = (typeof EDITABLE_TYPES)[number];

export const EDITABLE_TYPES = [
  'NewsItem',
  'Event',
  'Publication',
  'Course',
  'ResearchProject',
  'Document',
  'Person',
  'PodcastEpisode',
  'Page',
  'Category',
  'Home',
  'Site',
] as const;

/** The types of which there is exactly one, and its id. */
const SINGLES = { Home: 'home', Site: 'site' } as const;

type Single = keyof typeof SINGLES;

/** The types whose items are listed, added and deleted. */
type ListedType = Exclude<EditableType, Single | 'Category'>;

/** One change to one item, as the change log keeps it. */
export interface LoggedChange {
  /** Position in the log: 1, 2, 3… for the backend's life. */
  seq: number;
  type: EditableType;
  id: string;
  /** The item's slug after the change (before it, for a deletion); null for Home and Site, which have none. */
  slug: string | null;
  /** The slug the item had before this change gave it a new one; null when the slug stayed. */
  previousSlug: string | null;
  kind: 'UPSERT' | 'DELETE';
  /** Whether a reader without drafts saw the item before and after the change. */
  publicBefore: boolean;
  publicAfter: boolean;
}

/** The content as it stands, the store indexing it, and the edits. */
export interface EditableContent {
  /** The store as it stands now: resolvers read it on every request. */
  readonly store: ContentStore;
  /** The records as they stand now (this backend's own: see ownRecords). */
  readonly content: Content;
  /** Edits so far: 0 at start, one more with each. */
  readonly revision: number;
  update(type: string, id: string, fields: Record<string, unknown>): LoggedChange;
  create(type: string, fields: Record<string, unknown>): LoggedChange;
  remove(type: string, id: string): LoggedChange;
  /** The latest changes, oldest first (at most `history` of them). */
  readonly log: readonly LoggedChange[];
}

/** Changes the log keeps by default; a cursor older than the oldest is answered as expired. */
export const CHANGE_HISTORY = 10_000;

/** What the edits need besides the content. */
export interface EditingOptions {
  /** The content schema (site/schema.graphql): every field an edit sets is checked against it (edit-fields.ts). */
  readonly schema: GraphQLSchema;
  /** Clock for the `updatedAt` of what an edit changes or adds. @default () => new Date() */
  readonly now?: () => Date;
  /** Changes the log keeps (a positive integer). @default CHANGE_HISTORY */
  readonly history?: number;
}

/**
 * Makes a content set editable. The content's items are changed in place from now on (see ownRecords
 * for the records it copies first).
 */
export function createEditableContent(
  source: Content,
  { schema, now = () => new Date(), history = CHANGE_HISTORY }: EditingOptions,
): EditableContent {
  if (!Number.isInteger(history) || history < 1)
    throw new RangeError(`Expected the change history to be a whole number from 1 up, got ${history}.`);
  const content = ownRecords(source);
  let store = createContentStore(content);
  const log: LoggedChange[] = [];
  let seq = 0;
  // Ids of added items count up per type and are never given twice, even after a deletion.
  const added = new Map<EditableType, number>();
  const record = (
    type: EditableType,
    item: { id: string; slug?: string | null; status?: Status },
    kind: LoggedChange['kind'],
    publicBefore: boolean,
    previousSlug: string | null = null,
  ): LoggedChange => {
    const change: LoggedChange = {
      seq: ++seq,
      type,
      id: item.id,
      slug: item.slug ?? null,
      previousSlug,
      kind,
      publicBefore,
      publicAfter: kind === 'UPSERT' && isPublic(item),
    };
    log.push(change);
    if (log.length > history) log.splice(0, log.length - history);
    store = createContentStore(content);
    return change;
  };
  const check = (kind: EditableType, fields: Record<string, unknown>): Record<string, unknown> => {
    if (kind === 'Site')
      for (const field of SITE_FIXED)
        if (field in fields)
          throw new EditError(
            `The site's ${field} cannot be changed here: it is where and how the whole site is published, set in the content itself.`,
          );
    const checked = checkFields(schema, kind, fields, referencesFor(content, kind));
    checkUrls(checked, content.media, kind);
    return checked;
  };
  return {
    get store() {
      return store;
    },
    content,
    get revision() {
      return seq;
    },
    log,
    update(type, id, fields) {
      const kind = typeOf(type);
      const item = findItem(content, kind, id);
      const before = isPublic(item);
      const previousSlug = item.slug;
      const changes = check(kind, fields);
      if ('slug' in changes || 'category' in changes)
        checkSlugFree(content, kind, (changes.slug ?? item.slug) as string, changes.category ?? item.category, item);
      assign(item, { ...changes, ...('updatedAt' in item && !('updatedAt' in fields) ? { updatedAt: now().toISOString() } : {}) });
      if (isSingle(kind)) return record(kind, { id: SINGLES[kind] }, 'UPSERT', true);
      return record(kind, item, 'UPSERT', before, item.slug !== previousSlug ? previousSlug : null);
    },
    create(type, fields) {
      const kind = typeOf(type);
      if (kind === 'Category')
        throw new EditError(
          'Categories cannot be created here: each belongs to the event, publication or document lists, which the site is built around.',
        );
      if (isSingle(kind))
        throw new EditError(`There is one ${kind}: change it with updateContent (id '${SINGLES[kind]}'); it cannot be added or deleted.`);
      const list = listOf(content, kind);
      // Only a published item lends its other fields: a draft's text, dates and media would go public with the new item.
      const template = list.find((i) => i.status !== 'DRAFT');
      if (!template) throw new EditError(`A new ${kind} needs a published one to take its other fields from, and there is none.`);
      if (typeof fields.slug !== 'string') throw new EditError(`A new ${kind} needs a slug (fields.slug, a string).`);
      const item = plainCopy(template);
      item.id = newId(content, kind, added);
      if ('updatedAt' in item) item.updatedAt = now().toISOString();
      if ('status' in item) item.status = 'PUBLISHED';
      assign(item, check(kind, fields));
      checkSlugFree(content, kind, item.slug, item.category, null);
      list.push(item);
      return record(kind, item, 'UPSERT', false);
    },
    remove(type, id) {
      const kind = typeOf(type);
      if (isSingle(kind))
        throw new EditError(`There is one ${kind}: change it with updateContent (id '${SINGLES[kind]}'); it cannot be added or deleted.`);
      const item = findItem(content, kind, id);
      if (kind === 'Category' && usedCategory(content, item))
        throw new EditError(`Category ${id} is used by items; move them to another category first.`);
      const before = isPublic(item);
      // A publication's file is a Document no list holds: only the publication refers to it.
      const list = allLists(content, kind).find((l) => l.includes(item));
      list?.splice(list.indexOf(item), 1);
      dropReferences(content, item);
      return record(kind, item, 'DELETE', before);
    },
  };
}

/** The store as resolvers hold it: each read goes to the store as it stands after the latest edit. */
export function liveView(content: Pick<EditableContent, 'store'>): ContentStore {
  return new Proxy({} as ContentStore, { get: (_, key) => Reflect.get(content.store, key) });
}

/**
 * A value worked out from the content, again on first use after an edit: a burst of edits costs one
 * computation, and none when nothing asks.
 */
export function afterEdits<T>(editable: Pick<EditableContent, 'content' | 'revision'>, compute: (content: Content) => T): () => T {
  let revision = -1;
  let value: T;
  return () => {
    if (revision !== editable.revision) {
      value = compute(editable.content);
      revision = editable.revision;
    }
    return value;
  };
}

// --- internal ---

type Item = { id: string; slug: string; status?: Status; updatedAt?: string; [field: string]: unknown };

function isSingle(type: EditableType): type is Single {
  return type in SINGLES;
}

/**
 * Sets fields as own data properties: the scaled content's records (scale-entries.ts) compute some
 * fields with getters on their class, which an edit shadows.
 */
function assign(item: Item, fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields))
    Object.defineProperty(item, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The content with its lists and the records that module constants share between content sets (site,
 * home, the about pages, the categories: content/site.ts, content/categories.ts) copied, and the items'
 * categories pointed at the copies: edits change records in place, and an edit in one backend must not
 * show in another started in the same process (tests, benches) or in the next content set made.
 */
function ownRecords(source: Content): Content {
  const copies = new Map<object, object>();
  const own = <T extends object>(record: T): T => {
    const copy = Object.create(Object.getPrototypeOf(record) as object | null, Object.getOwnPropertyDescriptors(record)) as T;
    copies.set(record, copy);
    return copy;
  };
  const content: Content = {
    ...source,
    site: own(source.site),
    home: own(source.home),
    pages: source.pages.map(own),
    eventCategories: source.eventCategories.map(own),
    publicationCategories: source.publicationCategories.map(own),
    documentCategories: source.documentCategories.map(own),
    news: [...source.news],
    events: [...source.events],
    publications: [...source.publications],
    courses: [...source.courses],
    projects: [...source.projects],
    documents: [...source.documents],
    people: [...source.people],
    episodes: [...source.episodes],
  };
  for (const item of [...content.events, ...content.publications, ...content.documents] as unknown as Item[]) {
    const category = copies.get(item.category as object);
    if (category) assign(item, { category });
  }
  return content;
}

/** Every field of an item, computed ones included, as a plain object. */
function plainCopy(template: Item): Item {
  const keys = new Set<string>(Object.keys(template));
  for (
    let proto = Object.getPrototypeOf(template) as object | null;
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto) as object | null
  ) {
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(proto))) if (descriptor.get) keys.add(key);
  }
  return Object.fromEntries([...keys].map((key) => [key, template[key]])) as Item;
}

function typeOf(type: string): EditableType {
  if ((EDITABLE_TYPES as readonly string[]).includes(type)) return type as EditableType;
  throw new EditError(`Unknown content type '${type}': use one of ${EDITABLE_TYPES.join(', ')}.`);
}

function isPublic(item: { status?: Status }): boolean {
  return item.status !== 'DRAFT';
}

/** The list new items of a type go into. */
function listOf(content: Content, type: ListedType): Item[] {
  const lists: Record<ListedType, readonly unknown[]> = {
    NewsItem: content.news,
    Event: content.events,
    Publication: content.publications,
    Course: content.courses,
    ResearchProject: content.projects,
    Document: content.documents,
    Person: content.people,
    PodcastEpisode: content.episodes,
    Page: content.pages,
  };
  return lists[type] as Item[];
}

/** Every list that holds items of a type: the three category lists for Category, the one record for Home and Site. */
function allLists(content: Content, type: EditableType): Item[][] {
  if (isSingle(type)) return [[{ ...(type === 'Home' ? content.home : content.site), id: SINGLES[type] } as unknown as Item]];
  return (
    type === 'Category' ? [content.eventCategories, content.publicationCategories, content.documentCategories] : [listOf(content, type)]
  ) as Item[][];
}

/** Every item of a type, publications' files among the documents. */
function allOf(content: Content, type: EditableType): Item[] {
  const items = allLists(content, type).flat();
  if (type === 'Document')
    for (const publication of content.publications) if (publication.file) items.push(publication.file as unknown as Item);
  return items;
}

function findItem(content: Content, type: EditableType, id: string): Item {
  if (isSingle(type)) {
    if (id !== SINGLES[type]) throw new EditError(`No ${type} has the id '${id}': there is one, '${SINGLES[type]}'.`);
    return (type === 'Home' ? content.home : content.site) as unknown as Item;
  }
  const item = allOf(content, type).find((i) => i.id === id);
  if (!item) throw new EditError(`No ${type} has the id '${id}'.`);
  return item;
}

/** How an edit of a `type` names other items: by id, a category by its slug among the type's categories. */
function referencesFor(content: Content, type: EditableType): References {
  return {
    find(target, key, where) {
      if (target === 'Category') {
        const categories =
          type === 'Event' ? content.eventCategories : type === 'Publication' ? content.publicationCategories : content.documentCategories;
        const category = categories.find((c: CategoryEntry) => c.slug === key);
        if (!category)
          throw new EditError(
            `No category of ${type} has the slug '${key}' (${where}): use one of ${categories.map((c) => c.slug).join(', ')}.`,
          );
        return category;
      }
      if (!(EDITABLE_TYPES as readonly string[]).includes(target)) throw new EditError(`The field ${where} cannot be set here.`);
      const item = allOf(content, target as EditableType).find((i) => i.id === key);
      if (!item) throw new EditError(`No ${target} has the id '${key}' (${where}).`);
      return item;
    },
  };
}

/**
 * A slug names one page: it must be safe in a URL and not another item's of the type (of the same
 * category for events and publications, whose addresses carry their category).
 */
/** Site fields an edit may not change: every page's canonical address, language and clock come from them. */
const SITE_FIXED = ['url', 'language', 'timeZone'] as const;

/**
 * Media fields name a file the backend holds (`/media/…`, which the build re-hosts under the site's own
 * origin): anything else would be hotlinked from another origin, or refused by every build until fixed.
 * A registration link is an https URL.
 */
function checkUrls(value: unknown, media: ReadonlyMap<string, unknown>, type: string, key = ''): void {
  if (Array.isArray(value)) {
    for (const item of value) checkUrls(item, media, type, key);
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) checkUrls(v, media, type, k);
    return;
  }
  if (typeof value !== 'string') return;
  if ((key === 'url' && type !== 'Site') || key === 'audioUrl') {
    if (!media.has(value))
      throw new EditError(
        `The ${key} of a ${type} must name a file the backend holds (a /media/… path it serves); ${JSON.stringify(value)} is not one. Upload the file first.`,
      );
  } else if (key === 'registrationUrl' && !/^https:\/\/[^\s/]+\.[^\s]+$/.test(value)) {
    throw new EditError(`The registrationUrl of a ${type} must be an https address; ${JSON.stringify(value)} is not one.`);
  }
}

function checkSlugFree(content: Content, type: EditableType, slug: string, category: unknown, self: Item | null): void {
  if (!/^[a-z0-9][a-z0-9-]{0,119}$/.test(slug))
    throw new EditError(`The slug '${slug}' is not one: lower-case letters, digits and hyphens.`);
  const scoped = type === 'Event' || type === 'Publication';
  const taken = allOf(content, type).find((i) => i.slug === slug && i !== self && (!scoped || i.category === category));
  if (taken)
    throw new EditError(
      `The slug '${slug}' is taken by ${type} ${taken.id}${scoped ? ` in the category ${(category as CategoryEntry).slug}` : ''}.`,
    );
}

/** `newsitem-new-1`, `newsitem-new-2`…: never an id the type has, nor one an item added and deleted had. */
function newId(content: Content, type: EditableType, added: Map<EditableType, number>): string {
  const ids = new Set(allOf(content, type).map((i) => i.id));
  for (let n = (added.get(type) ?? 0) + 1; ; n++) {
    if (ids.has(`${type.toLowerCase()}-new-${n}`)) continue;
    added.set(type, n);
    return `${type.toLowerCase()}-new-${n}`;
  }
}

function usedCategory(content: Content, category: Item): boolean {
  return [...content.events, ...content.publications, ...content.documents].some((i) => i.category === (category as unknown));
}

/** Whatever refers to a deleted item stops referring to it. */
function dropReferences(content: Content, gone: Item): void {
  const without = <T>(list: readonly T[]): T[] => list.filter((i) => i !== (gone as unknown));
  for (const publication of content.publications as unknown as Item[]) {
    if ((publication.authors as unknown[]).includes(gone)) assign(publication, { authors: without(publication.authors as unknown[]) });
    if (publication.file === gone) assign(publication, { file: null });
  }
  for (const course of content.courses as unknown as Item[])
    if ((course.teachers as unknown[]).includes(gone)) assign(course, { teachers: without(course.teachers as unknown[]) });
  for (const project of content.projects as unknown as Item[]) {
    if ((project.people as unknown[]).includes(gone)) assign(project, { people: without(project.people as unknown[]) });
    if ((project.publications as unknown[]).includes(gone)) assign(project, { publications: without(project.publications as unknown[]) });
  }
}
