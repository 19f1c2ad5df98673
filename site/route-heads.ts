import type { PageHead, RouteParams } from '../runtime/index.ts';
import type { SiteData } from '../runtime/shared/contract.ts';
import type { EventResult } from './queries/events.ts';
import type { HomeResult } from './queries/home.ts';
import type { NewsArticleResult } from './queries/news.ts';
import type { PageData } from './queries/pages.ts';
import type { PublicationResult } from './queries/publications.ts';
import type { ResearchProjectResult } from './queries/research.ts';
import { categoriesOf, siteInfo } from './queries/site.ts';

/**
 * `<head>` fields per route. The runtime also calls these on client navigation with whatever data it has,
 * so each tolerates missing data and falls back to a generic title rather than throwing mid-navigation.
 */

const DESCRIPTION_LENGTH = 160;

/** The first sentence-ish stretch of a text, cut at a word boundary, for meta descriptions. */
export function excerpt(text: string | undefined, max = DESCRIPTION_LENGTH): string {
  const flat = (text ?? '').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

/** A fixed head for list pages, whose text does not depend on the data. */
export function staticHead(title: string, description: string): () => PageHead {
  return () => ({ title, description });
}

export function homeHead(data: HomeResult | null, _params: RouteParams, site: SiteData): PageHead {
  const info = siteInfo(site);
  return { title: info.name ?? data?.home?.title ?? 'Home', description: excerpt(info.description ?? data?.home?.intro) };
}

/** About pages: any data whose `page` is an editorial page. */
export function editorialHead(fallbackTitle: string): (data: { page: PageData | null } | null) => PageHead {
  return (data) => ({ title: data?.page?.title ?? fallbackTitle, description: excerpt(data?.page?.summary) });
}

export function newsArticleHead(data: NewsArticleResult | null): PageHead {
  const item = data?.newsItem;
  return { title: item?.title ?? 'News', description: excerpt(item?.summary), ...(item?.image ? { image: item.image.url } : {}) };
}

export function eventHead(data: EventResult | null): PageHead {
  const event = data?.event;
  return { title: event?.title ?? 'Event', description: excerpt(event?.summary), ...(event?.image ? { image: event.image.url } : {}) };
}

export function publicationHead(data: PublicationResult | null): PageHead {
  const publication = data?.publication;
  return { title: publication?.title ?? 'Publication', description: excerpt(publication?.abstract) };
}

export function researchProjectHead(data: ResearchProjectResult | null): PageHead {
  const project = data?.researchProject;
  return {
    title: project?.title ?? 'Research project',
    description: excerpt(project?.summary),
    ...(project?.image ? { image: project.image.url } : {}),
  };
}

/** Category pages take their title and description from the site data, which lists every category. */
export function categoryHead(
  key: 'eventCategories' | 'publicationCategories',
  section: string,
): (data: unknown, params: RouteParams, site: SiteData) => PageHead {
  return (_data: unknown, params: RouteParams, site: SiteData): PageHead => {
    const category = categoriesOf(site, key).find((c) => c.slug === params.category);
    return { title: category ? `${category.title} · ${section}` : section, description: excerpt(category?.description) };
  };
}
