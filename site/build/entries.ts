import type { RouteDataContext, RouteEntry } from '../../runtime/shared/route-data.ts';
import { EVENT_ENTRIES_QUERY, type EventEntriesResult, type EventResult } from '../queries/events.ts';
import { NEWS_ARTICLES_QUERY, RELATED_NEWS_SIZE, type NewsArticleData, type NewsArticleResult, type NewsArticlesResult } from '../queries/news.ts';
import {
  PUBLICATION_CATEGORIES_QUERY,
  PUBLICATION_ENTRIES_QUERY,
  type PublicationCategoriesResult,
  type PublicationEntriesResult,
  type PublicationResult,
} from '../queries/publications.ts';
import { RESEARCH_PROJECT_ENTRIES_QUERY, type ResearchProjectEntriesResult, type ResearchProjectResult } from '../queries/research.ts';
import { entry } from './entry.ts';
import { collectAll, paginate } from './paginate.ts';
import { relatedArticles } from './related-news.ts';

/**
 * The pages of each item route. Item routes page through the full list query, whose nodes use the same
 * fragment as the route's own query, so each entry carries its page's data in exactly the shape the page
 * query returns and the build needs no request per item. (List pages: list-entries.ts, event-pages.ts.)
 */

/** Articles are collected first: each one's related articles come from the whole collection. */
export async function* newsArticleEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  const articles = await collectAll(ctx, { document: NEWS_ARTICLES_QUERY, select: (r: NewsArticlesResult) => r.newsItems });
  const related = relatedArticles(articles, RELATED_NEWS_SIZE);
  // Each article is let go once its page is handed on, and its related cards with it: on a large site
  // the whole collection, bodies included, is the largest thing the build holds.
  const left: (NewsArticleData | undefined)[] = articles;
  for (let i = 0; i < left.length; i++) {
    const item = left[i]!;
    left[i] = undefined;
    const nodes = related.get(item.id) ?? [];
    related.delete(item.id);
    yield entry<NewsArticleResult>({ slug: item.slug }, { newsItem: item, related: { nodes } });
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

/** The slugs of every publication category. */
export async function publicationCategorySlugs(ctx: RouteDataContext): Promise<string[]> {
  const { publicationCategories } = await ctx.request<PublicationCategoriesResult>(PUBLICATION_CATEGORIES_QUERY);
  return publicationCategories.map((category) => category.slug);
}

/** Category pages list a category's first page of items; the build runs their own query for each. */
export async function* publicationCategoryEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  for (const category of await publicationCategorySlugs(ctx)) yield entry({ category });
}
