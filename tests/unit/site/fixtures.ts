import type { SiteData } from '../../../runtime/shared/contract.ts';
import type { CategoryData, ImageData, PersonCardData } from '../../../site/queries/common.ts';
import type { CourseData } from '../../../site/queries/courses.ts';
import type { DocumentData } from '../../../site/queries/documents.ts';
import type { EventDetailData } from '../../../site/queries/events.ts';
import type { NewsArticleData } from '../../../site/queries/news.ts';
import type { PageData } from '../../../site/queries/pages.ts';
import type { PodcastEpisodeData } from '../../../site/queries/podcast.ts';
import type { PublicationDetailData } from '../../../site/queries/publications.ts';
import type { ProjectDetailData } from '../../../site/queries/research.ts';
import type { SiteQueryResult } from '../../../site/queries/site.ts';

/** Small, typed sample data in the shapes the site's queries return, for rendering pages without a backend. */

const updatedAt = '2026-03-01T10:00:00Z';
export const image: ImageData = { url: '/media/sample.svg', alt: 'A sample image', width: 1200, height: 675 };
export const lectures: CategoryData = { slug: 'lectures', title: 'Lectures', description: 'Talks by guests and staff.' };
export const articles: CategoryData = { slug: 'articles', title: 'Articles', description: 'Peer-reviewed articles.' };

export const siteResult: SiteQueryResult = {
  site: {
    name: 'Northlight Institute',
    tagline: 'Where art meets technology',
    description: 'An independent institute.',
    url: 'https://institute.example',
    language: 'en',
    timeZone: 'Europe/Oslo',
    navigation: [
      { label: 'News', href: '/news' },
      { label: 'Events', href: '/events' },
      { label: 'Publications', href: '/publications' },
      { label: 'About', href: '/about' },
    ],
    footer: [{ label: 'Contact', href: '/about/contact' }],
    contact: {
      address: 'Glassworks Quay 14',
      postalCode: '0150',
      city: 'Harbourside',
      country: 'Norway',
      phone: '+47 22 00 41 00',
      email: 'info@institute.example',
      openingHours: 'Tuesday–Sunday 10:00–17:00',
    },
  },
  eventCategories: [lectures],
  publicationCategories: [articles],
};
export const site: SiteData = siteResult;

export const person: PersonCardData = {
  id: 'p1',
  slug: 'ada-berg',
  name: 'Ada Berg',
  role: 'Researcher',
  department: 'Research',
  email: 'ada@institute.example',
  photo: { ...image, alt: '' },
};

export const newsItem: NewsArticleData = {
  id: 'n1',
  slug: 'open-day',
  title: 'Open day',
  updatedAt,
  date: '2026-03-14',
  summary: 'Visit the studios.',
  body: '<p>Everyone is welcome.</p>',
  image,
  tags: ['studios', 'public'],
};

export const event = (slug: string, startsAt: string): EventDetailData => ({
  id: slug,
  slug,
  title: `Event ${slug}`,
  updatedAt,
  startsAt,
  endsAt: startsAt.replace('T18', 'T20'),
  location: 'Auditorium',
  summary: 'A lecture.',
  category: lectures,
  registrationUrl: 'https://tickets.example/e',
  body: '<p>Details.</p>',
  image: null,
});

export const publication: PublicationDetailData = {
  id: 'pub1',
  slug: 'a-study',
  title: 'A study',
  updatedAt,
  year: 2025,
  publisher: 'Northlight Press',
  category: articles,
  authors: [person, { ...person, id: 'p2', name: 'Bo Lind' }],
  abstract: 'First paragraph.\n\nSecond paragraph.',
  doi: 'doi:10.1234/abc',
  file: { id: 'd1', title: 'A study (PDF)', url: '/media/a-study.pdf', mimeType: 'application/pdf', size: 1_572_864 },
};

export const project: ProjectDetailData = {
  id: 'r1',
  slug: 'afterimages',
  title: 'Afterimages',
  updatedAt,
  summary: 'Light and perception.',
  startDate: '2025-02-01',
  endDate: null,
  image,
  body: '<p>About the project.</p>',
  people: [person],
  publications: [publication],
};

export const page = (slug: string, sections = 0): PageData => ({
  id: slug,
  slug,
  title: `Page ${slug}`,
  summary: 'A summary.',
  updatedAt,
  body: '<p>Body text.</p>',
  sections: Array.from({ length: sections }, (_, i) => ({
    id: `section-${i + 1}`,
    title: `Section ${i + 1}`,
    body: '<p>Section text.</p>',
  })),
});

export const episode: PodcastEpisodeData = {
  id: 'e1',
  slug: 'listening-walks',
  number: 8,
  title: 'Listening walks',
  publishedAt: '2026-09-05T08:00:00Z',
  duration: 1985,
  audioUrl: '/media/podcast/8.mp3',
  summary: 'A walk.',
};

export function course(slug: string, level: string): CourseData {
  return {
    id: slug,
    slug,
    title: `Course ${slug}`,
    updatedAt,
    code: slug.toUpperCase(),
    level,
    credits: 10,
    period: 'Autumn 2026',
    language: 'English',
    description: 'Intro.',
    teachers: [person],
  };
}

export const documentItem: DocumentData = {
  id: 'doc1',
  slug: 'annual-report-2025',
  title: 'Annual report 2025',
  updatedAt,
  url: '/media/documents/annual-report-2025.pdf',
  mimeType: 'application/pdf',
  size: 714,
  description: 'Activities and accounts.',
  publishedAt: '2026-03-31T00:00:00Z',
  category: { slug: 'reports', title: 'Annual reports', description: 'Yearly reports.' },
};

/** A list page's connection: more items than it shows, so the page has later pages. */
const list = <T>(nodes: T[]) => ({ nodes, totalCount: nodes.length + 30, pageInfo: { hasNextPage: true, endCursor: 'c1' } });
const upcomingRefs = { upcomingEvents: [{ id: 'future', startsAt: '2026-11-24T18:30:00Z' }] };

/** One data sample per route id, with the params a visitor's URL would give it. */
export const routeSamples: Record<string, { path: string; params: Record<string, string>; data: unknown }> = {
  home: {
    path: '/',
    params: {},
    data: {
      home: {
        title: 'Welcome',
        intro: 'We research.\n\nWe teach.',
        updatedAt,
        featuredNews: [newsItem],
        upcomingEvents: [event('talk', '2026-11-24T18:30:00Z')],
        latestPublications: [publication],
        researchHighlights: [project],
      },
    },
  },
  news: { path: '/news', params: {}, data: { newsItems: list([newsItem]) } },
  'news-page': {
    path: '/news/page/2',
    params: { page: '2' },
    data: { newsItems: { nodes: [newsItem], pageInfo: { hasNextPage: true, endCursor: null } }, archive: { newer: 1 } },
  },
  'news-article': {
    path: '/news/open-day',
    params: { slug: 'open-day' },
    data: { newsItem, related: { nodes: [{ ...newsItem, id: 'n2', slug: 'summer-school', title: 'Summer school' }] } },
  },
  about: { path: '/about', params: {}, data: { page: page('about', 2) } },
  'about-people': { path: '/about/people', params: {}, data: { page: page('people'), people: list([person]) } },
  'about-contact': { path: '/about/contact', params: {}, data: { page: page('contact') } },
  'about-podcast': { path: '/about/podcast', params: {}, data: { page: page('podcast'), podcastEpisodes: list([episode]) } },
  'about-large': { path: '/about/about-large', params: {}, data: { page: page('about-large', 3) } },
  'about-artistic-research': {
    path: '/about/artistic-research',
    params: {},
    data: {
      page: page('artistic-research'),
      researchProjects: {
        nodes: [
          { ...project, artistic: true },
          { ...project, id: 'r2', title: 'Not artistic', artistic: false },
        ],
      },
    },
  },
  events: {
    path: '/events',
    params: {},
    data: { home: { upcomingEvents: [event('future', '2026-11-24T18:30:00Z')] }, events: { totalCount: 12 } },
  },
  'events-page': {
    path: '/events/page/2',
    params: { page: '2' },
    data: { home: upcomingRefs, events: list([event('later', '2027-01-10T18:00:00Z'), event('past', '2025-01-10T18:00:00Z')]) },
  },
  'event-category': {
    path: '/events/lectures',
    params: { category: 'lectures' },
    data: { home: upcomingRefs, events: list([event('past', '2025-01-10T18:00:00Z'), event('future', '2026-11-24T18:30:00Z')]) },
  },
  'event-category-page': {
    path: '/events/lectures/page/2',
    params: { category: 'lectures', page: '2' },
    data: { home: upcomingRefs, events: list([event('past', '2025-01-10T18:00:00Z')]) },
  },
  event: {
    path: '/events/lectures/talk',
    params: { category: 'lectures', slug: 'talk' },
    data: { event: event('talk', '2026-11-24T18:30:00Z') },
  },
  publications: {
    path: '/publications',
    params: {},
    data: { publications: list([publication, { ...publication, id: 'pub2', year: 2024 }]) },
  },
  'publications-page': {
    path: '/publications/page/2',
    params: { page: '2' },
    data: { publications: list([{ ...publication, id: 'pub3', year: 2019 }]) },
  },
  'publication-category': { path: '/publication/articles', params: { category: 'articles' }, data: { publications: list([publication]) } },
  'publication-category-page': {
    path: '/publication/articles/page/2',
    params: { category: 'articles', page: '2' },
    data: { publications: list([publication]) },
  },
  publication: { path: '/publication/articles/a-study', params: { category: 'articles', slug: 'a-study' }, data: { publication } },
  courses: { path: '/courses', params: {}, data: { courses: list([course('nli-b110', 'Bachelor'), course('nli-m210', 'Master')]) } },
  'courses-page': { path: '/courses/page/2', params: { page: '2' }, data: { courses: list([course('nli-p310', 'PhD')]) } },
  research: { path: '/research', params: {}, data: { researchProjects: list([project]) } },
  'research-page': { path: '/research/page/2', params: { page: '2' }, data: { researchProjects: list([project]) } },
  'research-project': { path: '/research/afterimages', params: { slug: 'afterimages' }, data: { researchProject: project } },
  documents: { path: '/documents', params: {}, data: { documents: list([documentItem]) } },
  'documents-page': { path: '/documents/page/2', params: { page: '2' }, data: { documents: list([documentItem]) } },
  login: { path: '/login', params: {}, data: { __typename: 'Query' } },
  search: { path: '/search', params: {}, data: { __typename: 'Query' } },
};
