import type { LiveQuery } from '../runtime/index.ts';
import { COURSES_QUERY } from './queries/courses.ts';
import { DOCUMENTS_QUERY } from './queries/documents.ts';
import { EVENT_CATEGORY_QUERY, EVENT_QUERY, EVENTS_INDEX_QUERY } from './queries/events.ts';
import { HOME_QUERY } from './queries/home.ts';
import { NEWS_ARTICLE_QUERY, NEWS_INDEX_QUERY } from './queries/news.ts';
import { PAGE_QUERY, PAGE_SLUGS } from './queries/pages.ts';
import { ABOUT_PEOPLE_QUERY } from './queries/people.ts';
import { ABOUT_PODCAST_QUERY } from './queries/podcast.ts';
import { PUBLICATION_CATEGORY_QUERY, PUBLICATION_QUERY, PUBLICATIONS_INDEX_QUERY } from './queries/publications.ts';
import { ARTISTIC_RESEARCH_QUERY, RESEARCH_INDEX_QUERY, RESEARCH_PROJECT_QUERY } from './queries/research.ts';

/**
 * The query and variables of every route whose data is a function of its URL alone: the build runs them
 * (site/routes.build.ts spreads these entries into its own), and the browser runs the same ones for editor
 * preview and when a payload cannot be loaded. Client-safe, loaded lazily with the live-data chunk.
 * Later list pages (`…/page/:page`) are not here: their data is cut from a walk of the list at build time,
 * and the cursor that would fetch one alone is never part of a URL; they always show the build's data.
 * Keys are route ids (not typed as such: site/routes.ts loads this module, and the type would go round).
 */
export const liveQueries = {
  home: { query: HOME_QUERY },

  news: { query: NEWS_INDEX_QUERY },
  'news-article': { query: NEWS_ARTICLE_QUERY, variables: (params) => ({ slug: params.slug }) },

  about: { query: PAGE_QUERY, variables: () => ({ slug: PAGE_SLUGS.about }) },
  'about-people': { query: ABOUT_PEOPLE_QUERY },
  'about-contact': { query: PAGE_QUERY, variables: () => ({ slug: PAGE_SLUGS.contact }) },
  'about-podcast': { query: ABOUT_PODCAST_QUERY },
  'about-large': { query: PAGE_QUERY, variables: () => ({ slug: PAGE_SLUGS.aboutLarge }) },
  'about-artistic-research': { query: ARTISTIC_RESEARCH_QUERY },

  events: { query: EVENTS_INDEX_QUERY },
  'event-category': { query: EVENT_CATEGORY_QUERY, variables: (params) => ({ category: params.category }) },
  event: { query: EVENT_QUERY, variables: (params) => ({ category: params.category, slug: params.slug }) },

  publications: { query: PUBLICATIONS_INDEX_QUERY },
  'publication-category': { query: PUBLICATION_CATEGORY_QUERY, variables: (params) => ({ category: params.category }) },
  publication: { query: PUBLICATION_QUERY, variables: (params) => ({ category: params.category, slug: params.slug }) },

  courses: { query: COURSES_QUERY },

  research: { query: RESEARCH_INDEX_QUERY },
  'research-project': { query: RESEARCH_PROJECT_QUERY, variables: (params) => ({ slug: params.slug }) },

  documents: { query: DOCUMENTS_QUERY },
} satisfies Record<string, LiveQuery>;
