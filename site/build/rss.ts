import { element, escapeXml } from './xml.ts';

/** RSS 2.0 feeds (news, events), with `content:encoded` for full text and an Atom self link. */

export interface FeedItem {
  title: string;
  /** Absolute URL of the item's page; also its guid. */
  link: string;
  /** ISO-8601 publication date. */
  published: string;
  /** Plain-text summary. */
  description: string;
  /** Full text as HTML, with absolute URLs. */
  html?: string;
  categories?: readonly string[];
}

export interface Feed {
  title: string;
  /** Absolute URL of the page the feed mirrors. */
  link: string;
  /** Absolute URL of the feed itself. */
  self: string;
  description: string;
  language: string;
  items: readonly FeedItem[];
}

/** The feed document. `lastBuildDate` is the newest item's date, so an unchanged feed keeps its bytes. */
export function renderRss(feed: Feed): string {
  const newest = feed.items.reduce<string | undefined>((max, item) => (!max || item.published > max ? item.published : max), undefined);
  const items = feed.items.map((item) =>
    [
      '    <item>',
      `      ${element('title', item.title)}`,
      `      ${element('link', item.link)}`,
      `      ${element('guid', item.link, ' isPermaLink="true"')}`,
      `      ${element('pubDate', rfc822(item.published))}`,
      `      ${element('description', item.description)}`,
      item.html ? `      ${element('content:encoded', item.html)}` : '',
      ...(item.categories ?? []).map((category) => `      ${element('category', category)}`),
      '    </item>',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">',
    '  <channel>',
    `    ${element('title', feed.title)}`,
    `    ${element('link', feed.link)}`,
    `    <atom:link href="${escapeXml(feed.self)}" rel="self" type="application/rss+xml"/>`,
    `    ${element('description', feed.description || feed.title)}`,
    `    ${element('language', feed.language)}`,
    newest ? `    ${element('lastBuildDate', rfc822(newest))}` : '',
    ...items,
    '  </channel>',
    '</rss>',
    '',
  ]
    .filter((line) => line !== '')
    .join('\n');
}

/** RFC 822 date, as RSS wants it: `Sat, 14 Mar 2026 00:00:00 GMT`. */
export function rfc822(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toUTCString();
}
