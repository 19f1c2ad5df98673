import type { ContentStatus } from './common.ts';
import { composeDocument, LIST_PAGE_SIZE, type ListPage } from './document.ts';
import { PAGE_FRAGMENT, PAGE_SLUGS, type PageData } from './pages.ts';

export type PodcastEpisodeData = {
  /** Selected so the build can leave drafts out (cli/content/drafts.ts). */
  status?: ContentStatus;
  id: string;
  slug: string;
  number: number;
  title: string;
  publishedAt: string;
  duration: number;
  audioUrl: string;
  summary: string;
};

/** /about/podcast: the page's own text, then the newest episodes (the API sorts by number, newest first). */
export const ABOUT_PODCAST_QUERY = composeDocument(
  `
query AboutPodcast {
  page(slug: "${PAGE_SLUGS.podcast}") {
    ...PageFields
  }
  podcastEpisodes(first: ${LIST_PAGE_SIZE}) {
    totalCount
    nodes {
      id
      status
      slug
      number
      title
      publishedAt
      duration
      audioUrl
      summary
    }
  }
}`,
  [PAGE_FRAGMENT],
);

export type AboutPodcastResult = {
  page: PageData | null;
  podcastEpisodes: ListPage<PodcastEpisodeData>;
};
