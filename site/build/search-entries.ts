import type { RouteParamsRecord, SearchEntry } from '../../runtime/shared/route-data.ts';
import type { SiteData } from '../../runtime/shared/contract.ts';
import { contentId } from '../../runtime/shared/content-ids.ts';
import { imageUrlAtLeast } from '../../runtime/shared/images.ts';
import { IMAGE_SLOTS } from '../components/image.tsx';
import type { ImageData } from '../queries/common.ts';
import { personHref } from '../data/people-links.ts';
import type { SearchSection } from '../data/search-sections.ts';
import { isoInZone } from '../format/dates.ts';
import type { CoursesResult } from '../queries/courses.ts';
import type { DocumentsResult } from '../queries/documents.ts';
import type { EventResult } from '../queries/events.ts';
import type { NewsArticleResult } from '../queries/news.ts';
import type { PageData } from '../queries/pages.ts';
import type { AboutPeopleResult } from '../queries/people.ts';
import type { PublicationResult } from '../queries/publications.ts';
import type { ResearchProjectResult } from '../queries/research.ts';
import { timeZoneOf } from '../queries/site.ts';

/**
 * What each searchable route gives the site search (`search` in site/routes.build.ts): item pages are
 * found by their rendered main content; the people directory, the course catalogue and the document
 * list give one entry per item, found by the item's own text and leading to it. Lists, pagination,
 * category pages, the home page and the login form give none.
 */

type Search<TData> = (data: TData, params: RouteParamsRecord, site: SiteData) => SearchEntry | readonly SearchEntry[] | null;

export const newsArticleSearch: Search<NewsArticleResult> = ({ newsItem: item }, _params, site) =>
  item && {
    section: 'news' satisfies SearchSection,
    title: item.title,
    date: item.date,
    year: yearOf(item.date, site),
    image: thumbnailOf(item.image),
  };

export const eventSearch: Search<EventResult> = ({ event }, _params, site) =>
  event && {
    section: 'events' satisfies SearchSection,
    title: event.title,
    date: event.startsAt,
    year: yearOf(event.startsAt, site),
    image: thumbnailOf(event.image),
  };

// A publication has a year, not a date.
export const publicationSearch: Search<PublicationResult> = ({ publication }) =>
  publication && { section: 'publications' satisfies SearchSection, title: publication.title, year: String(publication.year) };

export const researchProjectSearch: Search<ResearchProjectResult> = ({ researchProject: project }, _params, site) =>
  project && {
    section: 'research' satisfies SearchSection,
    title: project.title,
    date: project.startDate,
    year: yearOf(project.startDate, site),
    image: thumbnailOf(project.image),
  };

/** An about page, found by its text. */
export const editorialSearch: Search<{ page: PageData | null }> = ({ page }) =>
  page && { section: 'about' satisfies SearchSection, title: page.title };

/** The people page itself (its text, less the directory: see `search.exclude`), then one entry per person, leading to their card. */
export const peopleSearch: Search<AboutPeopleResult> = (data) => [
  ...(data.page ? [{ section: 'about' satisfies SearchSection, title: data.page.title }] : []),
  ...data.people.nodes.map((person) => ({
    section: 'people' satisfies SearchSection,
    title: person.name,
    url: personHref(person),
    text: sentences(person.role, person.department),
    image: thumbnailOf(person.photo),
  })),
];

/** Each course of a catalogue page, leading to its entry on that page. */
export const coursesSearch: Search<CoursesResult> = ({ courses }) =>
  courses.nodes.map((course) => ({
    section: 'courses' satisfies SearchSection,
    title: `${course.code} ${course.title}`,
    url: `#${contentId(`course-${course.slug}`)}`,
    text: sentences(course.description, course.level, course.period, course.language, ...course.teachers.map((t) => t.name)),
  }));

/** Each document of a list page, leading to its file. */
export const documentsSearch: Search<DocumentsResult> = ({ documents }, _params, site) =>
  documents.nodes.map((doc) => ({
    section: 'documents' satisfies SearchSection,
    title: doc.title,
    url: doc.url,
    text: sentences(doc.description, doc.category.title),
    date: doc.publishedAt,
    year: yearOf(doc.publishedAt, site),
  }));

// --- internal ---

/** The year of a date in the institute's time zone (a New Year's Eve concert belongs to the year it is in there). */
function yearOf(iso: string, site: SiteData): string {
  return isoInZone(iso, timeZoneOf(site)).slice(0, 4);
}

function sentences(...parts: (string | null | undefined)[]): string {
  return parts
    .map((part) => part?.trim())
    .filter(Boolean)
    .map((part) => (/[.!?]$/.test(part!) ? part : `${part}.`))
    .join(' ');
}

/** A search result's thumbnail: the narrowest derivative that fills the `search` slot. */
function thumbnailOf(image: ImageData | null | undefined): string | undefined {
  return image ? imageUrlAtLeast(image, IMAGE_SLOTS.search.maxWidth) : undefined;
}
