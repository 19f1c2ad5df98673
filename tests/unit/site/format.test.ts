import { describe, expect, it, vi } from 'vitest';
import { splitTimeline } from '../../../site/data/event-timeline.ts';
import { groupBy } from '../../../site/data/grouping.ts';
import {
  checkTimeZone,
  dayAndMonth,
  formatDay,
  formatMonth,
  formatShortDay,
  formatTime,
  formatWeekday,
  isoInZone,
  isSameDay,
} from '../../../site/format/dates.ts';
import { fileTypeLabel, formatDuration, formatFileSize, isoDuration } from '../../../site/format/numbers.ts';
import { activeHref } from '../../../site/layouts/active-section.ts';
import { excerpt } from '../../../site/route-heads.ts';

/** The pure helpers behind what pages print: the same text on the build machine and in every browser. */

describe('dates', () => {
  it('prints calendar dates in British English regardless of the machine’s zone', () => {
    expect(formatDay('2026-03-14')).toBe('14 March 2026');
    expect(formatShortDay('2026-03-14T23:30:00Z')).toBe('14 Mar 2026');
    expect(formatMonth('2026-03-01')).toBe('March 2026');
  });

  it('prints times in UTC and says so when the site names no zone', () => {
    expect(formatTime('2026-11-24T18:30:00Z')).toBe('18:30 UTC');
  });

  it("prints times in the institute's zone with its abbreviation, across the daylight-saving change", () => {
    const oslo = 'Europe/Oslo';
    expect(formatTime('2026-11-24T18:30:00Z', oslo)).toBe('19:30 CET');
    expect(formatTime('2026-07-01T16:30:00Z', oslo)).toBe('18:30 CEST');
    // 2026-03-29 01:00 UTC: clocks go from 02:00 CET to 03:00 CEST.
    expect(formatTime('2026-03-29T00:59:00Z', oslo)).toBe('01:59 CET');
    expect(formatTime('2026-03-29T01:00:00Z', oslo)).toBe('03:00 CEST');
    expect(isoInZone('2026-07-01T16:30:00Z', oslo)).toBe('2026-07-01T18:30:00+02:00');
    expect(isoInZone('2026-11-24T18:30:00Z', 'America/New_York')).toBe('2026-11-24T13:30:00-05:00');
    // An event at 23:30 UTC is the next day in Oslo: the day, the weekday and the badge follow the zone.
    expect(formatDay('2026-11-24T23:30:00Z', oslo)).toBe('25 November 2026');
    expect(formatWeekday('2026-11-24T23:30:00Z', oslo)).toBe('Wednesday');
    expect(dayAndMonth('2026-11-24T23:30:00Z', oslo)).toEqual({ day: '25', month: 'Nov' });
    expect(isSameDay('2026-11-24T22:00:00Z', '2026-11-24T23:30:00Z', oslo)).toBe(false);
  });

  it('never shifts a date without a time (an all-day date), even west of Greenwich', () => {
    expect(formatDay('2026-03-14', 'America/Los_Angeles')).toBe('14 March 2026');
    expect(dayAndMonth('2026-03-14', 'Pacific/Honolulu')).toEqual({ day: '14', month: 'Mar' });
    expect(isoInZone('2026-03-14', 'Europe/Oslo')).toBe('2026-03-14');
  });

  it('refuses a zone Intl does not know, naming the field and the value', () => {
    expect(() => checkTimeZone('Mars/Olympus_Mons')).toThrow(
      "The site's timeZone 'Mars/Olympus_Mons' is not an IANA time zone name (such as Europe/Oslo); set site.timeZone in the content backend to one.",
    );
    expect(checkTimeZone('Europe/Oslo')).toBe('Europe/Oslo');
  });

  it('checks a zone once: every date on every page asks, and making a formatter costs as much as a small page', () => {
    checkTimeZone('Asia/Tokyo');
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    try {
      for (let i = 0; i < 100; i++) expect(checkTimeZone('Asia/Tokyo')).toBe('Asia/Tokyo');
      expect(made).not.toHaveBeenCalled();
      // A zone found wrong is not remembered as good.
      expect(() => checkTimeZone('Mars/Olympus_Mons')).toThrow(/not an IANA time zone/);
      expect(() => checkTimeZone('Mars/Olympus_Mons')).toThrow(/not an IANA time zone/);
    } finally {
      made.mockRestore();
    }
  });

  it('shows an unparseable date as given instead of "Invalid Date"', () => {
    expect(formatDay('someday')).toBe('someday');
  });

  it('compares days by their UTC calendar date', () => {
    expect(isSameDay('2026-11-24T08:00:00Z', '2026-11-24T20:00:00Z')).toBe(true);
    expect(isSameDay('2026-11-24T08:00:00Z', '2026-11-25T08:00:00Z')).toBe(false);
  });
});

describe('numbers', () => {
  it('prints file sizes in binary units with at most one decimal', () => {
    expect(formatFileSize(714)).toBe('714 bytes');
    expect(formatFileSize(1536)).toBe('1.5 KB');
    expect(formatFileSize(1_572_864)).toBe('1.5 MB');
    expect(formatFileSize(52_428_800)).toBe('50 MB');
  });

  it('prints podcast durations in minutes and hours, with an ISO form for machines', () => {
    expect(formatDuration(1985)).toBe('33 min');
    expect(formatDuration(3900)).toBe('1 h 5 min');
    expect(isoDuration(1985)).toBe('PT33M5S');
    expect(isoDuration(0)).toBe('PT0S');
  });

  it('names common file types and falls back to the MIME subtype', () => {
    expect(fileTypeLabel('application/pdf')).toBe('PDF');
    expect(fileTypeLabel('image/svg+xml')).toBe('SVG+XML');
  });
});

describe('grouping and timelines', () => {
  it('keeps groups in the order their first item arrived', () => {
    expect(groupBy([3, 1, 4, 1, 5], (n) => n % 2).map((g) => [g.key, g.items])).toEqual([
      [1, [3, 1, 1, 5]],
      [0, [4]],
    ]);
  });

  it('files events before the backend’s next event as past, most recent first', () => {
    const events = ['2025-01-01', '2025-06-01', '2026-12-01'].map((d, i) => ({ id: `e${i}`, startsAt: `${d}T10:00:00Z` }));
    const { upcoming, past } = splitTimeline(events, '2026-12-01T10:00:00Z');
    expect(upcoming.map((e) => e.id)).toEqual(['e2']);
    expect(past.map((e) => e.id)).toEqual(['e1', 'e0']);
  });

  it('keeps an event the backend calls upcoming out of the past, even if it started earlier', () => {
    const events = [{ id: 'running', startsAt: '2026-01-01T10:00:00Z' }];
    expect(splitTimeline(events, '2026-12-01T10:00:00Z', new Set(['running'])).upcoming).toHaveLength(1);
  });

  it('calls everything past when nothing is upcoming', () => {
    expect(splitTimeline([{ id: 'a', startsAt: '2030-01-01T00:00:00Z' }], null).past).toHaveLength(1);
  });
});

describe('navigation state', () => {
  const nav = [
    { label: 'Home', href: '/' },
    { label: 'About', href: '/about' },
    { label: 'People', href: '/about/people' },
    { label: 'Publications', href: '/publications' },
    { label: 'Elsewhere', href: 'https://example.org' },
  ];

  it('marks the most specific section that contains the page', () => {
    expect(activeHref(nav, '/about/people')).toBe('/about/people');
    expect(activeHref(nav, '/about/contact')).toBe('/about');
    expect(activeHref(nav, '/')).toBe('/');
  });

  it('files singular /publication pages under /publications', () => {
    expect(activeHref(nav, '/publication/articles/a-study')).toBe('/publications');
  });

  it('marks nothing for a page outside every section', () => {
    expect(activeHref(nav, '/courses')).toBeNull();
    expect(activeHref(nav, '/aboutness')).toBeNull();
  });
});

describe('meta descriptions', () => {
  it('cut long text at a word boundary with an ellipsis', () => {
    const text = 'word '.repeat(60);
    const out = excerpt(text);
    expect(out.length).toBeLessThanOrEqual(160);
    expect(out.endsWith('word…')).toBe(true);
  });
});
