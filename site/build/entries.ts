import type { RouteDataContext, RouteEntry } from '../../runtime/shared/route-data.ts';
import {
  EVENT_ENTRIES_QUERY,
  EVENT_REFS_QUERY,
  EVENTS_BY_SLUG,
  type EventDetailData,
  type EventEntriesResult,
  type EventRefData,
  type EventRefsResult,
  type EventResult,
} from '../queries/events.ts';
import {
  NEWS_ARTICLE_REFS_QUERY,
  NEWS_ARTICLES_BY_SLUG,
  NEWS_ARTICLES_QUERY,
  RELATED_NEWS_SIZE,
  type NewsArticleData,
  type NewsArticleRefsResult,
  type NewsArticleResult,
  type NewsArticlesResult,
  type NewsRelatedData,
} from '../queries/news.ts';
import {
  PUBLICATION_CATEGORIES_QUERY,
  PUBLICATION_ENTRIES_QUERY,
  PUBLICATION_REFS_QUERY,
  PUBLICATIONS_BY_SLUG,
  type PublicationCategoriesResult,
  type PublicationDetailData,
  type PublicationEntriesResult,
  type PublicationRefData,
  type PublicationRefsResult,
  type PublicationResult,
} from '../queries/publications.ts';
import {
  RESEARCH_PROJECT_ENTRIES_QUERY,
  RESEARCH_PROJECT_REFS_QUERY,
  RESEARCH_PROJECTS_BY_SLUG,
  type ProjectDetailData,
  type ProjectRefData,
  type ResearchProjectEntriesResult,
  type ResearchProjectRefsResult,
  type ResearchProjectResult,
} from '../queries/research.ts';
import { CARD_BATCH_SIZE } from '../queries/document.ts';
import { entry } from './entry.ts';
import { itemEntry, items, listItems, wantedItems, type ItemSource } from './items.ts';
import { relatedArticles } from './related-news.ts';
import { tryCreateSpill, type Spill } from './spill.ts';

/**
 * The pages of each item route. One machine pages through the full list query, whose nodes use the same
 * fragment as the route's own query, so each entry carries its page's data in exactly the shape the page
 * query returns and the build needs no request per item; a shard lists what names the pages and asks
 * for its own items only (items.ts). (List pages: list-entries.ts, event-pages.ts.)
 */

export const newsArticles: ItemSource<NewsArticleData, NewsRelatedData> = {
  full: { document: NEWS_ARTICLES_QUERY, select: (r: NewsArticlesResult) => r.newsItems },
  refs: { document: NEWS_ARTICLE_REFS_QUERY, select: (r: NewsArticleRefsResult) => r.newsItems, batchSize: CARD_BATCH_SIZE },
  params: (article) => ({ slug: article.slug }),
  byParams: NEWS_ARTICLES_BY_SLUG,
};

export const events: ItemSource<EventDetailData, EventRefData> = {
  full: { document: EVENT_ENTRIES_QUERY, select: (r: EventEntriesResult) => r.events },
  refs: { document: EVENT_REFS_QUERY, select: (r: EventRefsResult) => r.events, batchSize: CARD_BATCH_SIZE },
  params: (event) => ({ category: event.category.slug, slug: event.slug }),
  byParams: EVENTS_BY_SLUG,
};

export const publications: ItemSource<PublicationDetailData, PublicationRefData> = {
  full: { document: PUBLICATION_ENTRIES_QUERY, select: (r: PublicationEntriesResult) => r.publications },
  refs: { document: PUBLICATION_REFS_QUERY, select: (r: PublicationRefsResult) => r.publications, batchSize: CARD_BATCH_SIZE },
  params: (publication) => ({ category: publication.category.slug, slug: publication.slug }),
  byParams: PUBLICATIONS_BY_SLUG,
};

export const researchProjects: ItemSource<ProjectDetailData, ProjectRefData> = {
  full: { document: RESEARCH_PROJECT_ENTRIES_QUERY, select: (r: ResearchProjectEntriesResult) => r.researchProjects },
  refs: { document: RESEARCH_PROJECT_REFS_QUERY, select: (r: ResearchProjectRefsResult) => r.researchProjects, batchSize: CARD_BATCH_SIZE },
  params: (project) => ({ slug: project.slug }),
  byParams: RESEARCH_PROJECTS_BY_SLUG,
};

/**
 * Articles are collected first: each one's related articles come from the whole collection (in full on
 * one machine; without bodies for a shard, which needs only its own articles' bodies).
 */
export async function* newsArticleEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  const listed: (NewsRelatedData | undefined)[] = [];
  // Listed in full, the bodies wait on disk until their article's page is handed on (in memory when the
  // system's temporary folder cannot hold a file).
  const bodies = ctx.wants || ctx.unchanged ? null : tryCreateSpill();
  try {
    for await (const article of listItems(ctx, newsArticles)) listed.push(bodies ? spillBody(article as NewsArticleData, bodies) : article);
    const wants = ctx.wants;
    const related = relatedArticles(
      listed as NewsRelatedData[],
      RELATED_NEWS_SIZE,
      wants && ((article) => wants(newsArticles.params(article))),
    );
    const articles = bodies ? withBodies(lettingGo(listed) as Iterable<NewsArticleData>, bodies) : lettingGo(listed);
    // A page's key: which articles it shows as related, in order (their cards' fields are items its data holds).
    const keyOf = (article: NewsRelatedData): string => (related.get(article.id) ?? []).map((card) => card.id).join(' ');
    for await (const wanted of wantedItems(ctx, newsArticles, articles, keyOf)) {
      const nodes = related.get(wanted.listed.id) ?? [];
      related.delete(wanted.listed.id);
      yield itemEntry<NewsArticleResult>(wanted, (item) => ({ newsItem: item as NewsArticleData | null, related: { nodes } }));
    }
  } finally {
    bodies?.close();
  }
}

export async function* eventEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  for await (const wanted of items(ctx, events))
    yield itemEntry<EventResult>(wanted, (item) => ({ event: item as EventDetailData | null }));
}

export async function* publicationEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  for await (const wanted of items(ctx, publications))
    yield itemEntry<PublicationResult>(wanted, (item) => ({ publication: item as PublicationDetailData | null }));
}

export async function* researchProjectEntries(ctx: RouteDataContext): AsyncGenerator<RouteEntry> {
  for await (const wanted of items(ctx, researchProjects))
    yield itemEntry<ResearchProjectResult>(wanted, (item) => ({ researchProject: item as ProjectDetailData | null }));
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

// --- internal ---

/**
 * The article with its body put in `bodies` and a marker in its place (the field stays, so the data keeps its
 * key order). A body the spill does not keep stays where it is, as does one that is not a string (a
 * backend that breaks the schema), for the page to fail on.
 */
function spillBody(article: NewsArticleData, bodies: Spill): NewsArticleData {
  if (typeof article.body === 'string' && bodies.put(article.body)) article.body = SPILLED;
  return article;
}

/** The articles of spillBody with their bodies back, in the order they were spilled. */
function* withBodies(articles: Iterable<NewsArticleData>, bodies: Spill): Generator<NewsArticleData> {
  for (const article of articles) {
    if (article.body === SPILLED) article.body = bodies.take();
    yield article;
  }
}

/**
 * What stands in for a body on disk. A body equal to it is spilled like any other, and one the spill
 * cannot keep is not a well-formed string, which this is, so no body a backend sends is mistaken for it.
 */
const SPILLED = '\u0000spilled';

/**
 * The items of `list`, each let go once handed on (and its related cards with it, by the caller): on a
 * large site the whole collection is the largest thing the build holds (the bodies wait on disk: spill.ts).
 */
function* lettingGo<T>(list: (T | undefined)[]): Generator<T> {
  for (let i = 0; i < list.length; i++) {
    const item = list[i]!;
    list[i] = undefined;
    yield item;
  }
}
