import { IMAGE_FRAGMENT, type ImageData, type ContentStatus } from './common.ts';
import {
  composeDocument,
  defineFragment,
  ENTRY_BATCH_SIZE,
  listKeysQuery,
  NEWS_PAGE_SIZE,
  CARD_BATCH_SIZE,
  type ConnectionPage,
  type ItemField,
  type PagedList,
} from './document.ts';

export type NewsCardData = {
  /** Selected so the build can leave drafts out (cli/content/drafts.ts). */
  status?: ContentStatus;
  id: string;
  slug: string;
  title: string;
  updatedAt: string;
  date: string;
  summary: string;
  image: ImageData | null;
};

export const NEWS_CARD_FRAGMENT = defineFragment(
  `
fragment NewsCardFields on NewsItem {
  status
  id
  slug
  title
  updatedAt
  date
  summary
  image {
    ...ImageFields
  }
}`,
  [IMAGE_FRAGMENT],
);

export type NewsArticleData = NewsCardData & {
  body: string;
  tags: string[];
};

/** An article as related articles are picked from it: its card and its tags, without its body. */
export type NewsRelatedData = NewsCardData & { tags: string[] };

export const NEWS_ARTICLE_FRAGMENT = defineFragment(
  `
fragment NewsArticleFields on NewsItem {
  ...NewsCardFields
  body
  tags
}`,
  [NEWS_CARD_FRAGMENT],
);

/**
 * /news and its archive pages (/news/page/:page), newest first (the API's order). Without variables it is
 * what /news may show: the newest `2 × NEWS_PAGE_SIZE − 1` articles, of which the page shows those no
 * archive page holds (site/data/paging.ts, archiveLayout). The build walks the list with `after` for the
 * archive pages.
 */
export const NEWS_INDEX_QUERY = composeDocument(
  `
query NewsIndex($first: Int = ${2 * NEWS_PAGE_SIZE - 1}, $after: String) {
  newsItems(first: $first, after: $after) {
    nodes {
      ...NewsCardFields
    }
    totalCount
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [NEWS_CARD_FRAGMENT],
);

export type NewsIndexResult = { newsItems: PagedList<NewsCardData> };

/**
 * An archive page of the news (/news/page/:page), cut by the build from a walk of NEWS_INDEX_QUERY: its
 * articles and how many archive pages are newer (newerArchivePages), and not the collection's size, which
 * would change every archive page whenever an article is added.
 */
export type NewsArchiveResult = {
  newsItems: { nodes: NewsCardData[]; pageInfo: { hasNextPage: boolean; endCursor: null } };
  archive: { newer: number };
};

/** The news list's keys: which articles each list page shows, for an update in place (site/build/list-entries.ts). */
export const NEWS_INDEX_KEYS_QUERY = listKeysQuery('NewsIndexKeys', 'newsItems');

/** How many related articles an article links to. */
export const RELATED_NEWS_SIZE = 3;

/**
 * /news/:slug: the article, and `related` articles under it. The API knows nothing of relatedness, so the
 * build replaces `related` with articles that share the article's tags (site/build/related-news.ts); run on
 * its own, the query gives the newest articles instead, in the same shape.
 */
export const NEWS_ARTICLE_QUERY = composeDocument(
  `
query NewsArticle($slug: String!) {
  newsItem(slug: $slug) {
    ...NewsArticleFields
  }
  related: newsItems(first: ${RELATED_NEWS_SIZE + 1}) {
    nodes {
      ...NewsCardFields
    }
  }
}`,
  [NEWS_ARTICLE_FRAGMENT, NEWS_CARD_FRAGMENT],
);

export type NewsArticleResult = { newsItem: NewsArticleData | null; related: { nodes: NewsCardData[] } };

/** Every article in full, page by page: the build's source for /news/:slug pages. */
export const NEWS_ARTICLES_QUERY = composeDocument(
  `
query NewsArticles($first: Int = ${ENTRY_BATCH_SIZE}, $after: String) {
  newsItems(first: $first, after: $after) {
    nodes {
      ...NewsArticleFields
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [NEWS_ARTICLE_FRAGMENT],
);

export type NewsArticlesResult = { newsItems: ConnectionPage<NewsArticleData> };

/**
 * Every article without its body, page by page: a shard's list of /news/:slug pages, with what related
 * articles are picked from (site/build/items.ts).
 */
export const NEWS_ARTICLE_REFS_QUERY = composeDocument(
  `
query NewsArticleRefs($first: Int = ${CARD_BATCH_SIZE}, $after: String) {
  newsItems(first: $first, after: $after) {
    nodes {
      ...NewsCardFields
      tags
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}`,
  [NEWS_CARD_FRAGMENT],
);

export type NewsArticleRefsResult = { newsItems: ConnectionPage<NewsRelatedData> };

/** Articles in full by slug, many at once: a shard's source for its own /news/:slug pages. */
export const NEWS_ARTICLES_BY_SLUG: ItemField = {
  operation: 'NewsArticlesBySlug',
  field: 'newsItem',
  args: ['slug'],
  fragment: NEWS_ARTICLE_FRAGMENT,
  perRequest: 25,
};
