import type { EventDetailData } from './queries/events.ts';
import { DEFAULT_TIME_ZONE, isoInZone } from './format/dates.ts';
import type { CourseData } from './queries/courses.ts';
import type { NewsArticleData } from './queries/news.ts';
import type { PersonRefData } from './queries/common.ts';
import type { PublicationDetailData } from './queries/publications.ts';
import type { SiteInfoData } from './queries/site.ts';
import type { Crumb } from './data/trails.ts';
import { doiUrl } from './format/citation.ts';
import { personHref } from './data/people-links.ts';

/**
 * schema.org JSON-LD for search engines, published through each route's head (site/route-heads.ts). URLs are
 * root-relative here; the build makes them absolute against the site's base URL (cli/render/head.ts), so one build
 * published elsewhere with `--base-url` names its own address.
 */

export type JsonLd = Record<string, unknown>;

type SiteInfo = Partial<SiteInfoData>;

/** The institute, as publisher, organiser and provider. */
export function organization(site: SiteInfo, { full = false }: { full?: boolean } = {}): JsonLd {
  const base: JsonLd = { '@type': 'Organization', name: site.name ?? '', url: '/', logo: '/favicon.svg' };
  if (!full) return base;
  const contact = site.contact;
  return {
    '@context': 'https://schema.org',
    ...base,
    '@id': '/#organization',
    ...(site.description ? { description: site.description } : {}),
    ...(contact
      ? {
          email: contact.email,
          telephone: contact.phone,
          address: {
            '@type': 'PostalAddress',
            streetAddress: contact.address,
            postalCode: contact.postalCode,
            addressLocality: contact.city,
            addressCountry: contact.country,
          },
        }
      : {}),
  };
}

/** The trail from the home page, as the page's breadcrumbs show it; the current page has no `item`. */
export function breadcrumbList(trail: readonly Crumb[]): JsonLd {
  const items = [{ label: 'Home', href: '/' }, ...trail];
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((crumb, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      name: crumb.label,
      ...(crumb.href ? { item: crumb.href } : {}),
    })),
  };
}

export function newsArticle(item: NewsArticleData, path: string, site: SiteInfo): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: item.title,
    description: item.summary,
    url: path,
    mainEntityOfPage: path,
    datePublished: item.date,
    dateModified: item.updatedAt,
    ...(item.image ? { image: [item.image.url] } : {}),
    ...(item.tags.length > 0 ? { keywords: item.tags.join(', ') } : {}),
    author: organization(site),
    publisher: organization(site),
  };
}

export function event(item: EventDetailData, path: string, site: SiteInfo): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: item.title,
    description: item.summary,
    url: path,
    // In the institute's zone, with its offset: the time a visitor reads on the page.
    startDate: isoInZone(item.startsAt, site.timeZone || DEFAULT_TIME_ZONE),
    endDate: isoInZone(item.endsAt, site.timeZone || DEFAULT_TIME_ZONE),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    location: { '@type': 'Place', name: item.location || site.name || '', address: placeAddress(site, item.location) },
    ...(item.image ? { image: [item.image.url] } : {}),
    ...(item.registrationUrl ? { offers: { '@type': 'Offer', url: item.registrationUrl } } : {}),
    organizer: organization(site),
  };
}

export function scholarlyArticle(item: PublicationDetailData, path: string): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'ScholarlyArticle',
    headline: item.title,
    name: item.title,
    url: path,
    datePublished: String(item.year),
    dateModified: item.updatedAt,
    author: item.authors.map(person),
    ...(item.publisher ? { publisher: { '@type': 'Organization', name: item.publisher } } : {}),
    ...(item.abstract ? { abstract: item.abstract } : {}),
    ...(item.doi ? { sameAs: doiUrl(item.doi) } : {}),
    ...(item.file ? { encoding: { '@type': 'MediaObject', contentUrl: item.file.url, encodingFormat: item.file.mimeType } } : {}),
  };
}

/** The courses of a list page, each with its teachers as the instructors of its one instance. */
export function courseList(courses: readonly CourseData[], site: SiteInfo): JsonLd {
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    itemListElement: courses.map((course, i) => ({
      '@type': 'ListItem',
      position: i + 1,
      item: {
        '@type': 'Course',
        name: course.title,
        description: course.description || course.title,
        courseCode: course.code,
        educationalLevel: course.level,
        numberOfCredits: course.credits,
        ...(course.language ? { inLanguage: course.language } : {}),
        provider: organization(site),
        hasCourseInstance: {
          '@type': 'CourseInstance',
          courseMode: 'Onsite',
          name: course.period,
          instructor: course.teachers.map(person),
        },
      },
    })),
  };
}

// --- internal ---

function person(p: PersonRefData): JsonLd {
  return { '@type': 'Person', name: p.name, url: personHref(p) };
}

// An event's location is free text ("Auditorium, Glassworks Quay 14"); the institute's address makes it a place.
function placeAddress(site: SiteInfo, location: string): JsonLd | string {
  const contact = site.contact;
  if (!contact) return location;
  return {
    '@type': 'PostalAddress',
    streetAddress: contact.address,
    postalCode: contact.postalCode,
    addressLocality: contact.city,
    addressCountry: contact.country,
  };
}
