import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { HtmlValidate } from 'html-validate';
import ICAL from 'ical.js';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRoute, type RouteDefinition } from '../../runtime/routes.ts';
import { readBuild } from '../../cli/output/output.ts';
import type { BuildMeta } from '../../runtime/shared/contract.ts';
import { routes } from '../../site/routes.ts';
import { buildSampleSite } from '../helpers/cli.ts';
import { listFiles } from '../helpers/tree.ts';

/**
 * The built site's files as validators and parsers see them: every HTML page against the HTML standard and
 * the accessibility rules of html-validate, the sitemap, robots.txt, both feeds and every calendar file.
 */

let root: string;
let out: string;
let files: string[];
let meta: BuildMeta;
const xml = new XMLParser({ ignoreAttributes: false });
const read = (file: string): Promise<string> => readFile(join(out, file), 'utf8');
const table: readonly RouteDefinition[] = routes;
const routeIdOf = (path: string): string | undefined => findRoute(table, path)?.route.id;

beforeAll(async () => {
  ({ root, dir: out } = await buildSampleSite('site-outputs-'));
  files = await listFiles(out);
  ({ meta } = await readBuild(out));
}, 240_000);

afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('generated HTML', () => {
  it('passes html-validate’s HTML standard and accessibility rules on every page', async () => {
    const validator = new HtmlValidate({
      extends: ['html-validate:standard', 'html-validate:a11y'],
      // The error screen names its digit blocks "Error 404" on the heading itself, which ARIA allows.
      rules: { 'aria-label-misuse': ['error', { allowAnyNamable: true }] },
    });
    const pages = files.filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(meta.prerendered.length);
    const problems: string[] = [];
    for (const file of pages) {
      const report = await validator.validateString(await read(file), file);
      for (const message of report.results.flatMap((r) => r.messages))
        problems.push(`${file}: ${message.ruleId}: ${message.message} (${message.selector ?? ''})`);
    }
    expect(problems).toEqual([]);
  });
});

describe('sitemap.xml and robots.txt', () => {
  it('parse, and list every indexable page with its last modification', async () => {
    const sitemap = await read('sitemap.xml');
    expect(XMLValidator.validate(sitemap)).toBe(true);
    const urls = [xml.parse(sitemap).urlset.url].flat() as { loc: string; lastmod?: string }[];
    const paths = urls.map((u) => new URL(u.loc).pathname.replace(/(.)\/$/, '$1'));
    const indexable = [];
    for (const path of meta.prerendered) {
      const html = await read(path === '/' ? 'index.html' : `${path.slice(1)}/index.html`);
      if (!html.includes('<meta name="robots" content="noindex">')) indexable.push(path);
    }
    expect(paths.sort()).toEqual(indexable.sort());
    expect(urls.every((u) => u.lastmod !== undefined && !Number.isNaN(Date.parse(u.lastmod)))).toBe(true);
  });

  it('robots.txt points crawlers to the sitemap', async () => {
    expect(await read('robots.txt')).toMatch(/^Sitemap: https:\/\/institute\.example\/sitemap\.xml$/m);
  });
});

describe('feeds', () => {
  it.each(['feeds/news.xml', 'feeds/events.xml'])('%s parses as RSS 2.0 whose items link to built pages', async (file) => {
    const content = await read(file);
    expect(XMLValidator.validate(content)).toBe(true);
    const channel = xml.parse(content).rss.channel;
    const items = [channel.item].flat() as { link: string; guid: { '#text': string }; pubDate: string }[];
    expect(items.length).toBeGreaterThan(5);
    for (const item of items) {
      expect(meta.prerendered).toContain(new URL(item.link).pathname);
      expect(Number.isNaN(Date.parse(item.pubDate))).toBe(false);
    }
  });

  it('are linked from every page’s footer and from the head of the pages that list them', async () => {
    expect(await read('index.html')).toContain(
      '<link rel="alternate" type="application/rss+xml" title="News (RSS)" href="https://institute.example/feeds/news.xml">',
    );
    expect(await read('about/index.html')).toContain('href="/feeds/events.xml"');
  });
});

describe('calendar files', () => {
  it('exist for every event page and every event category, and parse as iCalendar with the event’s times', async () => {
    const events = meta.prerendered.filter((p) => routeIdOf(p) === 'event');
    const categories = meta.prerendered.filter((p) => routeIdOf(p) === 'event-category');
    expect(events.length).toBeGreaterThan(10);
    for (const path of [...events, ...categories]) {
      const content = await read(`${path.slice(1)}.ics`);
      const calendar = new ICAL.Component(ICAL.parse(content));
      const vevents = calendar.getAllSubcomponents('vevent');
      expect(vevents.length, path).toBeGreaterThan(0);
      if (events.includes(path)) {
        const payload = JSON.parse(await read(`${path.slice(1)}/_payload.json`)) as {
          data: { event: { startsAt: string; title: string } };
        };
        const parsed = new ICAL.Event(vevents[0]);
        expect(parsed.summary).toBe(payload.data.event.title);
        expect(parsed.startDate.toJSDate().getTime()).toBe(Date.parse(payload.data.event.startsAt));
      }
    }
  });
});

describe('structured data', () => {
  it('is valid JSON-LD on every page that has it, with absolute URLs', async () => {
    let count = 0;
    for (const path of meta.prerendered) {
      const html = await read(path === '/' ? 'index.html' : `${path.slice(1)}/index.html`);
      for (const [, json] of html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)) {
        const data = JSON.parse(json!) as { '@context': string; url?: string };
        expect(data['@context']).toBe('https://schema.org');
        if (data.url) expect(data.url).toMatch(/^https:\/\//);
        count++;
      }
    }
    expect(count).toBeGreaterThan(meta.prerendered.length);
  });
});
