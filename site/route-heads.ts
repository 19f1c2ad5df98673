import type { PageHead, RouteParams } from '../runtime/index.ts';
import type { SiteData } from '../runtime/shared/contract.ts';
import { imagePreload } from './components/image.tsx';
import { categoryCalendarHref, EVENTS_FEED, NEWS_FEED, type FeedLink } from './data/feeds.ts';
import { archivePageNumber, pageNumber } from './data/paging.ts';
import {
  ABOUT_CRUMB,
  EVENTS_CRUMB,
  laterTrail,
  listTrail,
  NEWS_CRUMB,
  PUBLICATIONS_CRUMB,
  RESEARCH_CRUMB,
  type Crumb,
} from './data/trails.ts';
import type { CoursesResult } from './queries/courses.ts';
import type { EventResult } from './queries/events.ts';
import type { HomeResult } from './queries/home.ts';
import type { NewsArticleResult } from './queries/news.ts';
import type { PageData } from './queries/pages.ts';
import type { PublicationResult } from './queries/publications.ts';
import type { ResearchProjectResult } from './queries/research.ts';
import { categoriesOf, siteInfo } from './queries/site.ts';
import {
  breadcrumbList,
  courseList,
  event as eventLd,
  newsArticle,
  organization,
  scholarlyArticle,
  type JsonLd,
} from './structured-data.ts';

/**
 * `<head>` fields per route: title, description, feeds and structured data. The runtime also calls these on
 * client navigation with whatever data it has, so each tolerates missing data and falls back to a generic
 * title rather than throwing mid-navigation.
 */

const DESCRIPTION_LENGTH = 160;

/** The first sentence-ish stretch of a text, cut at a word boundary, for meta descriptions. */
export function excerpt(text: string | undefined, max = DESCRIPTION_LENGTH): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

export interface ListHeadOptions {
  /** Path of page 1, e.g. `/news`. */
  base: string;
  alternates?: readonly FeedLink[];
  /** Structured data from the page's items (the course list). */
  items?: (data: never, site: SiteData) => JsonLd | null;
  /** The later pages are archive pages, numbered from the oldest: `/news/page/1` is one (site/data/paging.ts). */
  archive?: boolean;
}

/** A list page and its later pages: `News`, `News · Page 2`, each with its place in the breadcrumb trail. */
export function listHead(
  title: string,
  description: string,
  { base, alternates, items, archive = false }: ListHeadOptions,
): (data: unknown, params: RouteParams, site: SiteData) => PageHead {
  return (data, params, site) => {
    // An archive's page 1 is its oldest page, not the list's own path (site/data/paging.ts).
    const page = archive ? archivePageNumber(params) : pageNumber(params);
    const later = page !== null && (archive || page > 1);
    const trail = later ? laterTrail(title, base, page) : [{ label: title }];
    const listed = data ? items?.(data as never, site) : null;
    return {
      title: later ? `${title} · Page ${page}` : title,
      description,
      ...(alternates ? { alternates } : {}),
      structuredData: [breadcrumbList(trail), ...(listed ? [listed] : [])],
    };
  };
}

export function homeHead(data: HomeResult | null, _params: RouteParams, site: SiteData): PageHead {
  const info = siteInfo(site);
  return {
    title: info.name ?? data?.home?.title ?? 'Home',
    description: excerpt(info.description ?? data?.home?.intro),
    alternates: [NEWS_FEED, EVENTS_FEED],
    structuredData: [organization(info, { full: true })],
  };
}

export interface EditorialHeadOptions {
  /** /about itself, the top of the about pages' trail. */
  top?: boolean;
  /** The contact page: also publishes the institute's details. */
  describesInstitute?: boolean;
}

/** About pages: any data whose `page` is an editorial page. */
export function editorialHead(
  fallbackTitle: string,
  { top = false, describesInstitute = false }: EditorialHeadOptions = {},
): (data: { page: PageData | null } | null, params: RouteParams, site: SiteData) => PageHead {
  return (data, _params, site) => {
    const title = data?.page?.title ?? fallbackTitle;
    const trail: Crumb[] = top ? [{ label: title }] : [ABOUT_CRUMB, { label: title }];
    return {
      title,
      description: excerpt(data?.page?.summary),
      structuredData: [breadcrumbList(trail), ...(describesInstitute ? [organization(siteInfo(site), { full: true })] : [])],
    };
  };
}

export function newsArticleHead(data: NewsArticleResult | null, _params: RouteParams, site: SiteData): PageHead {
  const item = data?.newsItem;
  if (!item) return { title: 'News', description: '' };
  const path = `/news/${item.slug}`;
  return {
    title: item.title,
    description: excerpt(item.summary),
    ...(item.image ? { image: item.image.url, preloadImage: imagePreload(item.image, 'hero') } : {}),
    alternates: [NEWS_FEED],
    structuredData: [newsArticle(item, path, siteInfo(site)), breadcrumbList([NEWS_CRUMB, { label: item.title }])],
  };
}

export function eventHead(data: EventResult | null, _params: RouteParams, site: SiteData): PageHead {
  const event = data?.event;
  if (!event) return { title: 'Event', description: '' };
  const path = `/events/${event.category.slug}/${event.slug}`;
  return {
    title: event.title,
    description: excerpt(event.summary),
    ...(event.image ? { image: event.image.url, preloadImage: imagePreload(event.image, 'hero') } : {}),
    alternates: [EVENTS_FEED],
    structuredData: [
      eventLd(event, path, siteInfo(site)),
      breadcrumbList([EVENTS_CRUMB, { label: event.category.title, href: `/events/${event.category.slug}` }, { label: event.title }]),
    ],
  };
}

export function publicationHead(data: PublicationResult | null): PageHead {
  const publication = data?.publication;
  if (!publication) return { title: 'Publication', description: '' };
  const categoryHref = `/publication/${publication.category.slug}`;
  return {
    title: publication.title,
    description: excerpt(publication.abstract),
    structuredData: [
      scholarlyArticle(publication, `${categoryHref}/${publication.slug}`),
      breadcrumbList([PUBLICATIONS_CRUMB, { label: publication.category.title, href: categoryHref }, { label: publication.title }]),
    ],
  };
}

export function researchProjectHead(data: ResearchProjectResult | null): PageHead {
  const project = data?.researchProject;
  if (!project) return { title: 'Research project', description: '' };
  return {
    title: project.title,
    description: excerpt(project.summary),
    ...(project.image ? { image: project.image.url, preloadImage: imagePreload(project.image, 'hero') } : {}),
    structuredData: [breadcrumbList([RESEARCH_CRUMB, { label: project.title }])],
  };
}

/** The course list also describes each course. */
export const coursesItems = (data: CoursesResult, site: SiteData): JsonLd => courseList(data.courses.nodes, siteInfo(site));

/** Category pages (and their later pages) take their title and description from the site data, which lists every category. */
export function categoryHead(
  key: 'eventCategories' | 'publicationCategories',
  section: Crumb & { href: string },
): (data: unknown, params: RouteParams, site: SiteData) => PageHead {
  return (_data: unknown, params: RouteParams, site: SiteData): PageHead => {
    const category = categoriesOf(site, key).find((c) => c.slug === params.category);
    const page = pageNumber(params);
    if (!category) return { title: section.label, description: '' };
    const base = `${key === 'eventCategories' ? '/events' : '/publication'}/${category.slug}`;
    const trail: Crumb[] = [section, ...listTrail(category.title, base, page)];
    return {
      title: `${category.title} · ${section.label}${page > 1 ? ` · Page ${page}` : ''}`,
      description: excerpt(category.description),
      ...(key === 'eventCategories'
        ? {
            alternates: [
              EVENTS_FEED,
              { href: categoryCalendarHref(category.slug), type: 'text/calendar', title: `${category.title} (iCalendar)` },
            ],
          }
        : {}),
      structuredData: [breadcrumbList(trail)],
    };
  };
}
