import type { RouteDataContext, RouteEntry } from '../../runtime/shared/route-data.ts';
import {
  EVENT_CATEGORIES_QUERY,
  EVENT_ENTRIES_QUERY,
  type EventCategoriesResult,
  type EventEntriesResult,
  type EventResult,
} from '../queries/events.ts';
import { NEWS_ARTICLES_QUERY, type NewsArticleResult, type NewsArticlesResult } from '../queries/news.ts';
import {
  PUBLICATION_CATEGORIES_QUERY,
  PUBLICATION_ENTRIES_QUERY,
  type PublicationCategoriesResult,
  type PublicationEntriesResult,
  type PublicationResult,
} from '../queries/publications.ts';
import { RESEARCH_PROJECT_ENTRIES_QUERY, type ResearchProjectEntriesResult, type ResearchProjectResult } from '../queries/research.ts';
import { isSlug, SLUG_PATTERN } from '../route-guards.ts';
import { paginate } from './paginate.ts';

/**
 * The pages of each dynamic route. Item routes page through the full list query, whose nodes use the same
 * fragment as the route's own query, so each entry carries its page's data in exactly the shape the page
 * query returns and the build needs no request per item.
 */

/**
 * Typed so that an entry's data cannot drift from the route query's result type. A slug the route table's
 * `validate` would reject gives a page no visitor could navigate to, so it fails the build instead.
 */
function entry<TData>(params: Record<string, string>, data?: TData): RouteEntry {
  for (const [name, value] of Object.entries(params)) {
    if (!isSlug(value)) {
      throw new Error(`The backend returned the ${name} '${value}', which is not a valid slug (${SLUG_PATTERN}); fix it in the content.`);
    }
  }
  return data === undefined ? { params } : { params, data };
}

export async function* newsArticleEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  for await (const item of paginate(ctx, { document: NEWS_ARTICLES_QUERY, select: (r: NewsArticlesResult) => r.newsItems })) {
    yield entry<NewsArticleResult>({ slug: item.slug }, { newsItem: item });
  }
}

export async function* eventEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  for await (const event of paginate(ctx, { document: EVENT_ENTRIES_QUERY, select: (r: EventEntriesResult) => r.events })) {
    yield entry<EventResult>({ category: event.category.slug, slug: event.slug }, { event });
  }
}

export async function* publicationEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  for await (const publication of paginate(ctx, { document: PUBLICATION_ENTRIES_QUERY, select: (r: PublicationEntriesResult) => r.publications })) {
    yield entry<PublicationResult>({ category: publication.category.slug, slug: publication.slug }, { publication });
  }
}

export async function* researchProjectEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  for await (const project of paginate(ctx, { document: RESEARCH_PROJECT_ENTRIES_QUERY, select: (r: ResearchProjectEntriesResult) => r.researchProjects })) {
    yield entry<ResearchProjectResult>({ slug: project.slug }, { researchProject: project });
  }
}

// Category pages list a category's first page of items; the build runs their own query for each.

export async function* eventCategoryEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  const { eventCategories } = await ctx.request<EventCategoriesResult>(EVENT_CATEGORIES_QUERY);
  for (const category of eventCategories) yield entry({ category: category.slug });
}

export async function* publicationCategoryEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  const { publicationCategories } = await ctx.request<PublicationCategoriesResult>(PUBLICATION_CATEGORIES_QUERY);
  for (const category of publicationCategories) yield entry({ category: category.slug });
}
