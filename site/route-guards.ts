import type { RouteParams } from '../runtime/index.ts';
import type { SiteData } from '../runtime/shared/contract.ts';
import { isArchivePage, isLaterPage } from './data/paging.ts';
import { categoriesOf } from './queries/site.ts';

/**
 * Parameter checks the route table runs before anything loads; a failure is a fatal 404 (docs/decisions/route-table.md).
 * Slugs come from the address bar, so they are checked for shape before they reach a payload URL or a query.
 */

/** Lower-case letters, digits and hyphens, starting with a letter or digit, at most 200 characters. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]{0,199}$/;

export function isSlug(value: string | undefined): boolean {
  return value !== undefined && SLUG_PATTERN.test(value);
}

/** True when every named param is a well-formed slug. */
export function hasSlugParams(params: RouteParams, names: readonly string[]): boolean {
  return names.every((name) => isSlug(params[name]));
}

/** True when `params.category` names a category the site data lists. */
export function isKnownCategory(params: RouteParams, site: SiteData, key: 'eventCategories' | 'publicationCategories'): boolean {
  const slug = params.category;
  return isSlug(slug) && categoriesOf(site, key).some((category) => category.slug === slug);
}

export const validateEventCategory = (params: RouteParams, site: SiteData): boolean => isKnownCategory(params, site, 'eventCategories');

export const validatePublicationCategory = (params: RouteParams, site: SiteData): boolean =>
  isKnownCategory(params, site, 'publicationCategories');

// Item pages below a category also need a known category: `/events/nope/x` is as missing as `/events/nope`.
export const validateEvent = (params: RouteParams, site: SiteData): boolean =>
  hasSlugParams(params, ['category', 'slug']) && isKnownCategory(params, site, 'eventCategories');

export const validatePublication = (params: RouteParams, site: SiteData): boolean =>
  hasSlugParams(params, ['category', 'slug']) && isKnownCategory(params, site, 'publicationCategories');

export const validateSlug = (params: RouteParams): boolean => hasSlugParams(params, ['slug']);

/** Later pages of a list: `/news/page/2`; page 1 is the list's own path, so `/news/page/1` does not exist. */
export const validatePage = (params: RouteParams): boolean => isLaterPage(params.page);

/** Archive pages of a list numbered from its oldest end (the news): `/news/page/1` is the oldest. */
export const validateArchivePage = (params: RouteParams): boolean => isArchivePage(params.page);

export const validateEventCategoryPage = (params: RouteParams, site: SiteData): boolean =>
  validatePage(params) && validateEventCategory(params, site);

export const validatePublicationCategoryPage = (params: RouteParams, site: SiteData): boolean =>
  validatePage(params) && validatePublicationCategory(params, site);
