import { IMAGE_FRAGMENT, type ImageData } from './common.ts';
import { composeDocument, defineFragment, ENTRY_BATCH_SIZE, NEWS_PAGE_SIZE, type ConnectionPage, type ListPage } from './document.ts';

export type NewsCardData = {
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

export const NEWS_ARTICLE_FRAGMENT = defineFragment(
  `
fragment NewsArticleFields on NewsItem {
  ...NewsCardFields
  body
  tags
}`,
  [NEWS_CARD_FRAGMENT],
);

/** /news: the newest page of articles (the API sorts newest first). */
export const NEWS_INDEX_QUERY = composeDocument(
  `
query NewsIndex {
  newsItems(first: ${NEWS_PAGE_SIZE}) {
    totalCount
    nodes {
      ...NewsCardFields
    }
  }
}`,
  [NEWS_CARD_FRAGMENT],
);

export type NewsIndexResult = { newsItems: ListPage<NewsCardData> };

/** /news/:slug */
export const NEWS_ARTICLE_QUERY = composeDocument(
  `
query NewsArticle($slug: String!) {
  newsItem(slug: $slug) {
    ...NewsArticleFields
  }
}`,
  [NEWS_ARTICLE_FRAGMENT],
);

export type NewsArticleResult = { newsItem: NewsArticleData | null };

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
