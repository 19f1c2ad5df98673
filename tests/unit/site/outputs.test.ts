import { XMLParser, XMLValidator } from 'fast-xml-parser';
import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import type { BuiltPage, OutputContext, OutputFile } from '../../../runtime/shared/route-data.ts';
import { collectOutput } from '../../helpers/collect-output.ts';
import { escapeText, fold, icalDateTime, renderCalendar } from '../../../site/build/ical.ts';
import { eventCalendars, eventsFeed, FEED_SIZE, newsFeed, outputs } from '../../../site/outputs.build.ts';
import { event, newsItem, site } from './fixtures.ts';

/** The files the site writes beside its pages: RSS feeds and iCalendar files, checked with real parsers. */

const baseUrl = 'https://institute.example';
const page = (routeId: string, path: string, data: unknown): BuiltPage => ({ path, routeId, params: {}, data });
const talk = {
  ...event('talk', '2026-11-24T18:30:00Z'),
  title: 'Talk; with, commas & <angle> brackets',
  summary: 'Line one.\nLine two.',
  body: '<p>See <a href="/about">us</a> <img src="/media/a.svg" alt=""></p>',
};
const ctx: OutputContext = {
  site,
  baseUrl,
  buildTime: '2026-11-01T00:00:00.000Z',
};
const pages: BuiltPage[] = [
  page('news-article', '/news/open-day', { newsItem, related: { nodes: [] } }),
  page('news-article', '/news/older', {
    newsItem: { ...newsItem, id: 'n0', slug: 'older', title: 'Older', date: '2025-01-01' },
    related: { nodes: [] },
  }),
  page('event', '/events/lectures/talk', { event: talk }),
  page('event', '/events/lectures/early', { event: event('early', '2025-01-10T18:00:00Z') }),
  page('news', '/news', { newsItems: { nodes: [], totalCount: 0 } }),
];

const xml = new XMLParser({ ignoreAttributes: false });
const fileOf = (files: OutputFile[], name: string): string => {
  const file = files.find((f) => f.file === name);
  if (!file) throw new Error(`no ${name} among ${files.map((f) => f.file).join(', ')}`);
  return file.content;
};

describe('RSS feeds', () => {
  it('lists news articles newest first with absolute links, full text and tags, in a document that parses', async () => {
    const content = fileOf(await collectOutput(newsFeed, ctx, pages), 'feeds/news.xml');
    expect(XMLValidator.validate(content)).toBe(true);
    const channel = xml.parse(content).rss.channel;
    expect(channel['atom:link']['@_href']).toBe(`${baseUrl}/feeds/news.xml`);
    const items = [channel.item].flat();
    expect(items.map((i: { link: string }) => i.link)).toEqual([`${baseUrl}/news/open-day`, `${baseUrl}/news/older`]);
    expect(items[0].pubDate).toBe('Sat, 14 Mar 2026 00:00:00 GMT');
    expect(items[0].category).toEqual(['studios', 'public']);
    expect(items[0]['content:encoded']).toContain('Everyone is welcome.');
  });

  it('describes each event with its date and place, and makes links inside the text absolute', async () => {
    const content = fileOf(await collectOutput(eventsFeed, ctx, pages), 'feeds/events.xml');
    expect(XMLValidator.validate(content)).toBe(true);
    const items = [xml.parse(content).rss.channel.item].flat();
    expect(items[0].title).toBe('Talk; with, commas & <angle> brackets (24 November 2026)');
    expect(items[0].description).toMatch(/^24 November 2026, 19:30 CET, Auditorium\. Line one/);
    expect(items[0]['content:encoded']).toContain(`href="${baseUrl}/about"`);
    expect(items[0]['content:encoded']).toContain(`src="${baseUrl}/media/a.svg"`);
  });

  it('holds at most a feed’s worth of items', async () => {
    const many = Array.from({ length: FEED_SIZE + 5 }, (_, i) =>
      page('news-article', `/news/n${i}`, { newsItem: { ...newsItem, id: `n${i}`, slug: `n${i}` }, related: { nodes: [] } }),
    );
    const items = [xml.parse(fileOf(await collectOutput(newsFeed, ctx, many), 'feeds/news.xml')).rss.channel.item].flat();
    expect(items).toHaveLength(FEED_SIZE);
  });

  it('picks the same newest items whatever order the pages are built in, breaking date ties by path', async () => {
    const many = Array.from({ length: FEED_SIZE * 2 }, (_, i) =>
      page('news-article', `/news/n${String(i).padStart(2, '0')}`, {
        newsItem: { ...newsItem, id: `n${i}`, slug: `n${i}`, date: i % 3 === 0 ? '2026-01-01' : `2025-0${1 + (i % 9)}-01` },
        related: { nodes: [] },
      }),
    );
    const links = async (list: BuiltPage[]): Promise<string[]> =>
      [xml.parse(fileOf(await collectOutput(newsFeed, ctx, list), 'feeds/news.xml')).rss.channel.item]
        .flat()
        .map((i: { link: string }) => i.link);
    const forward = await links(many);
    expect(await links([...many].reverse())).toEqual(forward);
    expect(forward[0]).toBe(`${baseUrl}/news/n0`);
    expect(forward).toHaveLength(FEED_SIZE);
  });
});

describe('outputs of a page kept from the previous build', () => {
  /** Each output over `pages`, then again with every page but `fresh` kept: by its note, as an update in place gives it. */
  const again = async (output: typeof newsFeed, fresh: (p: BuiltPage) => boolean, tamper: (note: unknown) => unknown = (n) => n) => {
    const first = output(ctx);
    const notes = pages.map((p) => first.page(p));
    const byPath = new Map(pages.map((p) => [p.path, p.data]));
    const second = output(ctx);
    const read: string[] = [];
    pages.forEach((p, i) => {
      const params: Record<string, string> = p.routeId === 'event' ? { category: 'lectures', slug: p.path.split('/').at(-1)! } : {};
      if (fresh(p)) second.page(p);
      else second.kept!(tamper(notes[i] ?? null), { path: p.path, routeId: p.routeId, params });
    });
    const files = [...(await second.files({ data: async (path) => (read.push(path), byPath.get(path)) }))];
    return { files, read, whole: [...(await first.files({ data: async (path) => byPath.get(path) }))] };
  };

  it('gives the files it gives with every page read, reading back only the kept pages a feed lists', async () => {
    for (const output of outputs) {
      const { files, whole } = await again(output, (p) => p.path === '/news/older');
      expect(files).toEqual(whole);
    }
    const { read } = await again(newsFeed, (p) => p.path === '/news/older');
    expect(read).toEqual(['/news/open-day']);
    expect((await again(eventCalendars, () => false)).read).toEqual([]);
  });

  it("writes a kept event's calendar where its page's params say, whatever the build cache's note says, and fails on a note of another shape", async () => {
    const moved = await again(
      eventCalendars,
      () => false,
      (note) => (note && typeof note === 'object' ? { ...note, file: 'index.html', category: 'x' } : note),
    );
    expect(moved.files.map((f) => f.file).sort()).toEqual(['events/lectures.ics', 'events/lectures/early.ics', 'events/lectures/talk.ics']);
    await expect(
      again(
        eventCalendars,
        () => false,
        (note) => (note && typeof note === 'object' ? { title: 1 } : note),
      ),
    ).rejects.toThrow(/note of \/events\/lectures\/\w+ is not a calendar entry: build with --full/);
    await expect(
      again(
        newsFeed,
        () => false,
        (note) => (typeof note === 'string' ? 42 : note),
      ),
    ).rejects.toThrow(/is not a date: build with --full/);
  });
});

describe('iCalendar files', async () => {
  const files = await collectOutput(eventCalendars, ctx, pages);

  it('writes one file per event beside its page and one per category', () => {
    expect(files.map((f) => f.file).sort()).toEqual(['events/lectures.ics', 'events/lectures/early.ics', 'events/lectures/talk.ics']);
  });

  it('gives calendar apps the event’s title, times, place and page, with the special characters intact', () => {
    const calendar = new ICAL.Component(ICAL.parse(fileOf(files, 'events/lectures/talk.ics')));
    const [vevent] = calendar.getAllSubcomponents('vevent');
    const parsed = new ICAL.Event(vevent);
    expect(parsed.summary).toBe(talk.title);
    expect(parsed.description).toBe('Line one.\nLine two.');
    expect(parsed.location).toBe('Auditorium');
    expect(parsed.startDate.toJSDate().toISOString()).toBe('2026-11-24T18:30:00.000Z');
    expect(parsed.endDate.toJSDate().toISOString()).toBe('2026-11-24T20:30:00.000Z');
    expect(parsed.uid).toBe('talk@institute.example');
    expect(vevent?.getFirstPropertyValue('url')).toBe(`${baseUrl}/events/lectures/talk`);
  });

  it('subscribes to a whole category in start order', () => {
    const calendar = new ICAL.Component(ICAL.parse(fileOf(files, 'events/lectures.ics')));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Lectures · Northlight Institute');
    expect(calendar.getAllSubcomponents('vevent').map((v) => v.getFirstPropertyValue('uid'))).toEqual([
      'early@institute.example',
      'talk@institute.example',
    ]);
  });

  it('gives an edited event its new lines when the same process made its calendars before (the blocks it keeps)', async () => {
    // site live builds again and again in one process; the second build must not reuse the edited event's old block.
    const edited = pages.map((p) =>
      p.path === '/events/lectures/talk' ? { ...p, data: { event: { ...talk, title: 'Talk, moved', location: 'Hall B' } } } : p,
    );
    await collectOutput(eventCalendars, ctx, pages);
    const again = await collectOutput(eventCalendars, ctx, edited);
    const parsed = new ICAL.Event(
      new ICAL.Component(ICAL.parse(fileOf(again, 'events/lectures/talk.ics'))).getAllSubcomponents('vevent')[0],
    );
    expect([parsed.summary, parsed.location]).toEqual(['Talk, moved', 'Hall B']);
    const category = fileOf(again, 'events/lectures.ics');
    expect(category).toContain('SUMMARY:Talk\\, moved');
    expect(category).not.toContain('LOCATION:Auditorium\r\nDESCRIPTION:Line one.');
    // Byte for byte what renderCalendar makes of the same events.
    const [early, moved] = (
      edited.filter((p) => p.routeId === 'event').map((p) => (p.data as { event: unknown }).event) as (typeof talk)[]
    ).sort((a, b) => a.startsAt.localeCompare(b.startsAt));
    const entry = (e: typeof talk) => ({
      uid: `${e.id}@institute.example`,
      title: e.title,
      startsAt: e.startsAt,
      endsAt: e.endsAt,
      updatedAt: e.updatedAt,
      location: e.location,
      description: e.summary,
      url: `${baseUrl}/events/${e.category.slug}/${e.slug}`,
      categories: [e.category.title],
    });
    expect(category).toBe(
      renderCalendar({
        name: 'Lectures · Northlight Institute',
        producer: 'Northlight Institute',
        timeZone: 'Europe/Oslo',
        events: [early!, moved!].map(entry),
      }),
    );
  });

  it('ends lines with CRLF and folds long ones at 75 octets without splitting a character', () => {
    const content = renderCalendar({
      name: 'x',
      producer: 'p',
      events: [
        {
          uid: 'u',
          title: 'Å'.repeat(100),
          startsAt: talk.startsAt,
          endsAt: talk.endsAt,
          updatedAt: talk.updatedAt,
          location: '',
          description: '',
          url: 'https://x',
        },
      ],
    });
    const lines = content.split('\r\n');
    expect(content.replace(/\r\n/g, '')).not.toContain('\n');
    for (const line of lines) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    expect(new TextDecoder('utf-8', { fatal: true }).decode(new TextEncoder().encode(content))).toContain('ÅÅ');
    expect(fold('a'.repeat(80))).toBe(`${'a'.repeat(75)}\r\n ${'a'.repeat(5)}`);
  });

  it("names the institute's zone for calendar apps, with times as UTC instants", () => {
    const content = renderCalendar({ name: 'x', producer: 'p', timeZone: 'Europe/Oslo', events: [] });
    expect(content).toContain('X-WR-TIMEZONE:Europe/Oslo\r\n');
    expect(renderCalendar({ name: 'x', producer: 'p', events: [] })).not.toContain('X-WR-TIMEZONE');
  });

  it('escapes text values and writes UTC date-times', () => {
    expect(escapeText('a;b,c\\d\ne')).toBe('a\\;b\\,c\\\\d\\ne');
    // A bare carriage return would end the line for some parsers: a title could add a property of its own.
    expect(escapeText('Talk\rATTACH:https://evil.example/a.exe')).toBe('Talk\\nATTACH:https://evil.example/a.exe');
    expect(escapeText('a\r\nb')).toBe('a\\nb');
    expect(icalDateTime('2026-11-24T18:30:00Z')).toBe('20261124T183000Z');
  });
});

describe('site outputs', () => {
  it('are the feeds and the calendars', async () => {
    const names = (await Promise.all(outputs.map((output) => collectOutput(output, ctx, pages)))).flat().map((f) => f.file);
    expect(names).toEqual(
      expect.arrayContaining(['feeds/news.xml', 'feeds/events.xml', 'events/lectures.ics', 'events/lectures/talk.ics']),
    );
  });
});
