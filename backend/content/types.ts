/**
 * The content records the backend serves. Field names follow site/schema.graphql so the default GraphQL
 * resolvers can read them directly; dates are kept as ISO strings (DateTime: `2026-03-14T09:30:00Z`,
 * Date: `2026-03-14`) because that is what the API returns and it keeps records cheap at scale.
 * Records are readonly: one instance is shared by every request.
 */

/** Publication state; DRAFT entries are only visible to requests with a valid editor token. */
export type Status = 'PUBLISHED' | 'DRAFT';

/** An image reference; `url` is root-relative (`/media/...`) and served by the backend. */
export interface ImageRef {
  readonly url: string;
  readonly alt: string;
  readonly width: number;
  readonly height: number;
}

/** A label and a site path, for navigation and footer menus. */
export interface NavLink {
  readonly label: string;
  readonly href: string;
}

/** Fields every editorial entry carries. */
export interface EntryBase {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly updatedAt: string;
  readonly status: Status;
}

/** A category of events, publications or documents. */
export interface CategoryEntry {
  readonly id: string;
  readonly slug: string;
  readonly title: string;
  readonly description: string;
}

/** A member of staff or an affiliated researcher (always published). */
export interface PersonEntry {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly role: string;
  readonly department: string;
  readonly email: string;
  readonly photo: ImageRef | null;
  readonly bio: string;
  readonly updatedAt: string;
}

/** A news article. */
export interface NewsEntry extends EntryBase {
  readonly date: string;
  readonly summary: string;
  readonly body: string;
  readonly image: ImageRef | null;
  readonly tags: readonly string[];
}

/** A dated event in one category. */
export interface EventEntry extends EntryBase {
  readonly category: CategoryEntry;
  readonly startsAt: string;
  readonly endsAt: string;
  readonly location: string;
  readonly registrationUrl: string | null;
  readonly summary: string;
  readonly body: string;
  readonly image: ImageRef | null;
}

/** A downloadable file (PDF) with its exact byte size. */
export interface DocumentEntry extends EntryBase {
  readonly category: CategoryEntry;
  readonly url: string;
  readonly mimeType: string;
  readonly size: number;
  readonly publishedAt: string;
  readonly description: string;
}

/** A publication in one category. */
export interface PublicationEntry extends EntryBase {
  readonly category: CategoryEntry;
  readonly authors: readonly PersonEntry[];
  readonly year: number;
  readonly abstract: string;
  readonly doi: string | null;
  readonly publisher: string;
  readonly file: DocumentEntry | null;
}

/** A course in the study programmes. */
export interface CourseEntry extends EntryBase {
  readonly code: string;
  readonly level: string;
  readonly credits: number;
  readonly period: string;
  readonly language: string;
  readonly description: string;
  readonly teachers: readonly PersonEntry[];
}

/** A research project; `artistic` ones are listed on the artistic research page. */
export interface ProjectEntry extends EntryBase {
  readonly summary: string;
  readonly body: string;
  readonly image: ImageRef | null;
  readonly people: readonly PersonEntry[];
  readonly publications: readonly PublicationEntry[];
  readonly startDate: string;
  readonly endDate: string | null;
  readonly artistic: boolean;
}

/** A podcast episode; `audioUrl` is root-relative. */
export interface EpisodeEntry extends EntryBase {
  readonly number: number;
  readonly publishedAt: string;
  readonly duration: number;
  readonly audioUrl: string;
  readonly summary: string;
}

/** A titled part of a page; `id` is usable as an HTML anchor. */
export interface PageSectionEntry {
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

/** An editorial page (the about pages). */
export interface PageEntry extends EntryBase {
  readonly summary: string;
  readonly body: string;
  readonly sections: readonly PageSectionEntry[];
}

/** Site-wide settings. */
export interface SiteInfo {
  readonly name: string;
  readonly tagline: string;
  readonly description: string;
  readonly url: string;
  readonly language: string;
  /** IANA time zone the institute's times are shown in, such as Europe/Oslo. */
  readonly timeZone: string;
  readonly navigation: readonly NavLink[];
  readonly footer: readonly NavLink[];
  readonly contact: {
    readonly address: string;
    readonly postalCode: string;
    readonly city: string;
    readonly country: string;
    readonly phone: string;
    readonly email: string;
    readonly openingHours: string;
  };
}

/** The home page's own fields (its lists are derived from the collections). */
export interface HomeInfo {
  readonly title: string;
  readonly intro: string;
  readonly updatedAt: string;
}

/** How to generate one media file on request; the bytes are never stored. */
export type MediaSpec =
  | { readonly kind: 'image'; readonly width: number; readonly height: number; readonly label: string }
  | { readonly kind: 'pdf'; readonly title: string; readonly subtitle: string }
  | { readonly kind: 'audio'; readonly seconds: number; readonly frequency: number }
  /** A camera photo (photos.ts), generated on request. */
  | { readonly kind: 'photo'; readonly photo: 'landscape' | 'portrait' | 'display-p3'; readonly tag: string }
  /** A file served as it is (server.ts `extraMedia`: a test's corrupt upload, say). */
  | { readonly kind: 'file'; readonly contentType: string; readonly body: Buffer };

/**
 * A whole content set: the sample content or a scaled one. Lists are in no particular order (the store
 * sorts them); `media` maps every `/media/...` path the content references to how to generate it.
 */
export interface Content {
  readonly site: SiteInfo;
  readonly home: HomeInfo;
  readonly people: readonly PersonEntry[];
  readonly news: readonly NewsEntry[];
  readonly eventCategories: readonly CategoryEntry[];
  readonly events: readonly EventEntry[];
  readonly publicationCategories: readonly CategoryEntry[];
  readonly publications: readonly PublicationEntry[];
  readonly courses: readonly CourseEntry[];
  readonly projects: readonly ProjectEntry[];
  readonly documentCategories: readonly CategoryEntry[];
  readonly documents: readonly DocumentEntry[];
  readonly episodes: readonly EpisodeEntry[];
  readonly pages: readonly PageEntry[];
  readonly media: ReadonlyMap<string, MediaSpec>;
}
