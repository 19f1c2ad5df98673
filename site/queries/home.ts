import { composeDocument } from './document.ts';
import { EVENT_CARD_FRAGMENT, type EventCardData } from './events.ts';
import { NEWS_CARD_FRAGMENT, type NewsCardData } from './news.ts';
import { PUBLICATION_CARD_FRAGMENT, type PublicationCardData } from './publications.ts';
import { PROJECT_CARD_FRAGMENT, type ProjectCardData } from './research.ts';

/** How many items each home page band shows; three fill one row of cards on wide screens. */
export const HOME_BAND_SIZE = 3;

/** `/`: the intro and one band per section, each selected by the backend. */
export const HOME_QUERY = composeDocument(
  `
query Home {
  home {
    title
    intro
    updatedAt
    featuredNews(first: ${HOME_BAND_SIZE}) {
      ...NewsCardFields
    }
    upcomingEvents(first: ${HOME_BAND_SIZE}) {
      ...EventCardFields
    }
    latestPublications(first: ${HOME_BAND_SIZE}) {
      ...PublicationCardFields
    }
    researchHighlights(first: ${HOME_BAND_SIZE}) {
      ...ProjectCardFields
    }
  }
}`,
  [NEWS_CARD_FRAGMENT, EVENT_CARD_FRAGMENT, PUBLICATION_CARD_FRAGMENT, PROJECT_CARD_FRAGMENT],
);

export type HomeData = {
  title: string;
  intro: string;
  updatedAt: string;
  featuredNews: NewsCardData[];
  upcomingEvents: EventCardData[];
  latestPublications: PublicationCardData[];
  researchHighlights: ProjectCardData[];
};

export type HomeResult = { home: HomeData };
