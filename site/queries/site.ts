import type { SiteData } from '../../runtime/shared/contract.ts';
import { CATEGORY_FRAGMENT, type CategoryData } from './common.ts';
import { composeDocument } from './document.ts';
import { checkTimeZone, DEFAULT_TIME_ZONE } from '../format/dates.ts';

/** Layout-level data, fetched once per build and shared by every page through `useSite()`. */
export const SITE_QUERY = composeDocument(
  `
query SiteData {
  site {
    name
    tagline
    description
    url
    language
    timeZone
    navigation {
      label
      href
    }
    footer {
      label
      href
    }
    contact {
      address
      postalCode
      city
      country
      phone
      email
      openingHours
    }
  }
  eventCategories {
    ...CategoryFields
  }
  publicationCategories {
    ...CategoryFields
  }
}`,
  [CATEGORY_FRAGMENT],
);

export type NavItemData = { label: string; href: string };

export type ContactData = {
  address: string;
  postalCode: string;
  city: string;
  country: string;
  phone: string;
  email: string;
  openingHours: string;
};

export type SiteInfoData = {
  name: string;
  tagline: string;
  description: string;
  url: string;
  language: string;
  /** IANA time zone the institute's times are shown in (site/format/dates.ts). */
  timeZone: string;
  navigation: NavItemData[];
  footer: NavItemData[];
  contact: ContactData;
};

export type SiteQueryResult = {
  site: SiteInfoData;
  eventCategories: CategoryData[];
  publicationCategories: CategoryData[];
};

/**
 * The runtime hands site data around as an untyped record (it cannot know this site's query), so route
 * guards and heads read it through these accessors, which tolerate a missing or partial record instead of
 * throwing inside navigation.
 */
export function siteInfo(site: SiteData): Partial<SiteInfoData> {
  const info = site.site;
  return typeof info === 'object' && info !== null ? (info as Partial<SiteInfoData>) : {};
}

/** The zone the site's times are shown in: the site data's `timeZone`, checked; UTC when it names none. */
export function timeZoneOf(site: SiteData): string {
  const zone = siteInfo(site).timeZone;
  return typeof zone === 'string' && zone !== '' ? checkTimeZone(zone) : DEFAULT_TIME_ZONE;
}

export function categoriesOf(site: SiteData, key: 'eventCategories' | 'publicationCategories'): CategoryData[] {
  const list = site[key];
  return Array.isArray(list) ? (list as CategoryData[]) : [];
}
