/**
 * Sample news: six hand-written articles plus generated ones, dated January 2025 to October 2026. Two are
 * drafts (the newest hand-written one and one generated), so editor preview has something to show.
 */
import type { MediaRegistry } from './media-refs.ts';
import type { NewsEntry, Status } from './types.ts';
import { createRandom, hashString, pickAt } from './random.ts';
import { TOPICS, capitalize, composeArticle, composeSentences, paragraphs } from './prose.ts';
import { addDays, createSlugScope, daysBetween } from './slugs.ts';

interface HandWritten {
  title: string;
  date: string;
  summary: string;
  body: string;
  tags: string[];
  status?: Status;
}

const HAND_WRITTEN: readonly HandWritten[] = [
  {
    title: 'Winter programme 2027 announced',
    date: '2026-10-30',
    status: 'DRAFT',
    summary: 'Lectures, two exhibitions and a weekend of live coding: a first look at what happens at Northlight from January.',
    tags: ['programme', 'events'],
    body:
      paragraphs([
        'The winter programme opens on 14 January with an evening lecture on the history of machine listening, followed by <strong>two new exhibitions</strong> in the main hall.',
        'In February the black box hosts a weekend of live coding, with performers from six countries. Tickets go on sale in December.',
      ]) +
      '\n<h2>Highlights</h2>\n<ul><li>Evening lectures every second Wednesday</li><li>A symposium on digital preservation in March</li><li>Open studios on the last Thursday of each month</li></ul>',
  },
  {
    title: 'Director appointed for a second term',
    date: '2026-09-15',
    summary: 'The board has reappointed Ingrid Solberg-Maas as director of the Northlight Institute for a further four years.',
    tags: ['organisation'],
    body:
      paragraphs([
        'The board of the Northlight Institute has reappointed <strong>Ingrid Solberg-Maas</strong> as director for a second four-year term, starting in January 2027.',
        'During her first term the institute doubled its number of doctoral fellows, opened its archive to external researchers and launched the podcast.',
      ]) +
      '\n<blockquote><p>The next four years are about making our studios and collections useful to many more people.</p></blockquote>\n' +
      paragraphs(['Read the full statement from the board in the <a href="/documents">documents section</a>.']),
  },
  {
    title: 'Archive of early video art opens to researchers',
    date: '2026-06-02',
    summary: 'More than 400 tapes from the 1970s and 1980s have been digitised and can now be viewed in the reading room.',
    tags: ['archive', 'digital preservation'],
    body:
      paragraphs([
        'After three years of careful work, the institute’s collection of early video art is open to researchers. More than <strong>400 tapes</strong> have been cleaned, digitised and catalogued.',
        'The collection was donated by a group of artists who ran an independent video workshop in the harbour district. Many of the works have not been seen since they were made.',
      ]) +
      '\n<h2>How to visit</h2>\n' +
      paragraphs([
        'Viewing is by appointment in the reading room. Write to the archivist through the <a href="/about/contact">contact page</a> with a short description of your project.',
      ]),
  },
  {
    title: 'Annual report 2025: a year of open studios',
    date: '2026-01-20',
    summary: 'The annual report describes a year in which more than 9,000 visitors came to open studios, lectures and concerts.',
    tags: ['organisation', 'publication'],
    body: paragraphs([
      'The annual report for 2025 is now available. It describes a year with <em>more than 9,000 visitors</em>, eleven doctoral defences and the first season of the podcast.',
      'The report also sets out the institute’s accounts and the progress made on its environmental plan.',
      'Download it from the <a href="/documents">documents page</a>.',
    ]),
  },
  {
    title: 'Doctoral fellows start work on four new projects',
    date: '2025-09-05',
    summary: 'Four new PhD fellows join the institute this autumn, working on sound, textiles, archives and robotics.',
    tags: ['research', 'education'],
    body:
      paragraphs([
        'Four doctoral fellows have started at the institute this autumn. Their projects range from <em>textile computing</em> to the ethics of robotic choreography.',
        'Each fellow is supervised by one artist and one researcher, a model the institute has used since its founding.',
      ]) +
      '\n<ul><li>Listening to infrastructure</li><li>Soft circuits and craft knowledge</li><li>Re-reading the video archive</li><li>Bodies, machines and the stage</li></ul>',
  },
  {
    title: 'Northlight joins network for sustainable media labs',
    date: '2025-03-12',
    summary: 'The institute is one of twelve founding members of a European network that shares methods for lower-impact media production.',
    tags: ['partnership', 'sustainability'],
    body: paragraphs([
      'The Northlight Institute is a founding member of a new European network of media labs working to reduce the environmental impact of art and technology production.',
      'Members will share measurements, repair guides and purchasing policies. The institute contributes its experience of running studios on second-hand equipment.',
    ]),
  },
];

const TITLE_TEMPLATES = [
  'New research group on {topic} launches',
  'Open call: residency in {topic}',
  'Report on {topic} in public institutions',
  'Students show new work in {topic}',
  'Workshop series on {topic} opens for registration',
  'Open studio week: {topic}',
  'Grant awarded for three-year project on {topic}',
  'Archive acquires collection on {topic}',
  'Visiting researcher to explore {topic}',
  'Lecture recordings on {topic} now online',
  'Summer school in {topic} returns',
  'New course in {topic} this autumn',
  'Book launch: essays on {topic}',
] as const;

const TAGS = ['research', 'education', 'exhibition', 'open call', 'archive', 'funding', 'students', 'partnership'] as const;

/** Number of generated (not hand-written) sample news items. */
const GENERATED = 38;

/** Builds the sample news: hand-written items first, then generated ones; the store sorts them. */
export function createNews(media: MediaRegistry): NewsEntry[] {
  const slugFor = createSlugScope();
  const items: NewsEntry[] = HAND_WRITTEN.map((h, i) => {
    const slug = slugFor(h.title);
    return {
      id: `news-${i + 1}`,
      slug,
      title: h.title,
      updatedAt: `${h.date}T09:30:00Z`,
      status: h.status ?? 'PUBLISHED',
      date: h.date,
      summary: h.summary,
      body: h.body,
      tags: h.tags,
      image: media.image('news', 'news', slug, `Abstract illustration for “${h.title}”`),
    };
  });
  const span = daysBetween('2025-01-08', '2026-10-20');
  for (let i = 0; i < GENERATED; i++) {
    const random = createRandom(hashString(`news:${i}`));
    // Walking templates and topics with co-prime steps gives distinct, varied pairs without a retry loop.
    const topic = pickAt(TOPICS, i * 7);
    const title = capitalize(pickAt(TITLE_TEMPLATES, i).replace('{topic}', topic));
    const slug = slugFor(title);
    const date = addDays('2025-01-08', Math.floor((i * span) / (GENERATED - 1)));
    items.push({
      id: `news-${HAND_WRITTEN.length + i + 1}`,
      slug,
      title,
      updatedAt: `${addDays(date, i % 3)}T12:00:00Z`,
      status: i === GENERATED - 3 ? 'DRAFT' : 'PUBLISHED',
      date,
      summary: composeSentences(random, topic, 2),
      body: composeArticle(random, topic, { sections: random.int(2, 3) }),
      tags: [topic, ...random.sample(TAGS, random.int(1, 2))],
      image: i % 7 === 6 ? null : media.image('news', 'news', slug, `Abstract illustration for “${title}”`),
    });
  }
  return items;
}
