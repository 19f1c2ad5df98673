/**
 * Phrase banks and the composer that turns them into article bodies. Hand-written texts cover the pages
 * and a few headline items; everything else is assembled here from a seeded Random, so a body is
 * readable, between roughly 1 and 3 kB of HTML, and identical on every run.
 */
import type { Random } from './random.ts';

/** Research themes the institute works on; used in titles, bodies, tags and bios. */
export const TOPICS = [
  'machine listening',
  'generative drawing',
  'expanded cinema',
  'sound installation',
  'responsive architecture',
  'textile computing',
  'critical AI',
  'media archaeology',
  'live coding',
  'immersive performance',
  'data sculpture',
  'bio-art',
  'glitch aesthetics',
  'open hardware',
  'spatial audio',
  'digital preservation',
  'algorithmic composition',
  'participatory mapping',
  'light and perception',
  'robotic choreography',
  'climate data',
  'game art',
  'net art',
  'computational photography',
  'voice synthesis',
  'archival practice',
  'interactive narrative',
  'haptic interfaces',
  'urban sensing',
  'slow technology',
] as const;

const SENTENCES = [
  'The project brings together artists, engineers and historians who rarely share a room.',
  'Over the coming months the team will document its methods in an open notebook.',
  'Much of the work happens in the studios on the ground floor, which are open to visitors on Thursdays.',
  'Rather than treating {topic} as a tool, the group approaches it as a material with its own history.',
  'Students from the Master programme take part through a series of supervised studio sessions.',
  'Several of the prototypes are built from equipment found in the institute’s own archive.',
  'Questions of access and authorship run through every part of the programme.',
  'Partners include two regional museums, a public library and an independent record label.',
  'A short publication with essays and photographs will accompany the final presentation.',
  'Everyone is welcome, and no prior knowledge of {topic} is needed.',
  'The sessions are recorded and will be made available on the institute’s podcast.',
  'Early findings suggest that audiences respond most strongly when they can touch and change the work.',
  'The group keeps a shared reading list on {topic}, which it sends to anyone who asks.',
  'Each phase ends with a public presentation, so that the work is tested outside the lab as well as in it.',
  'Work on {topic} has long been split between the studio and the seminar room; this project joins them up.',
  'The team pays particular attention to energy use and to the lifespan of the equipment it builds.',
  'Material from the project will be deposited in the institute’s archive and catalogued for future researchers.',
  'Visiting artists will spend between two and six weeks in residence, working alongside the core team.',
  'The discussion continues online, where drafts, sketches and recordings are published as they are made.',
  'What began as a small experiment in {topic} has grown into a collaboration across three departments.',
  'The institute’s technicians have built custom tools for the project, all released under open licences.',
  'Local schools are invited to follow the work through a programme of visits and short workshops.',
  'The outcomes will feed into teaching, with new modules planned for the next academic year.',
  'Critics and curators are invited to respond to the work in a series of commissioned texts.',
] as const;

const HEADINGS = [
  'Background',
  'What happens next',
  'About the work',
  'Methods',
  'Who is involved',
  'Why it matters',
  'A closer look',
  'Context',
  'From the studio',
  'Taking part',
] as const;

const LIST_ITEMS = [
  'open studio sessions on Thursday afternoons',
  'a public seminar with invited respondents',
  'a reading group for staff and students',
  'guided tours of the archive',
  'a workshop for secondary school teachers',
  'an online presentation with live captions',
  'a small printed catalogue',
  'a field recording walk along the harbour',
  'a set of open-source tools and documentation',
  'a closing conversation with the artists',
  'short video portraits of the participants',
  'an evening of performances in the black box',
] as const;

const QUOTES = [
  'We wanted to slow down and look closely at what the technology actually does, not what it promises.',
  'The most interesting moments came when the system failed and we had to listen to why.',
  'An archive is not a storeroom. It is a conversation that someone has to keep going.',
  'Working with {topic} forces you to be precise about the things you cannot measure.',
  'Our students teach us as much about these tools as we teach them.',
  'Art is one of the few places where we can test a technology without having to sell it.',
] as const;

const LINKS = [
  { href: '/research', text: 'our research projects' },
  { href: '/events', text: 'the events calendar' },
  { href: '/publications', text: 'recent publications' },
  { href: '/courses', text: 'the study programmes' },
  { href: '/about/contact', text: 'contact the institute' },
  { href: '/about/podcast', text: 'the podcast' },
] as const;

/** Options for composeArticle. */
export interface ArticleOptions {
  /** Number of h2 sections after the lead. @default 2 */
  sections?: number;
  /** A closing "Practical information" block (for events). @default undefined */
  practical?: string;
}

/**
 * Composes an HTML article body about `topic`: lead paragraph, h2 sections with paragraphs, a list, a
 * blockquote, inline links and emphasis. Uses only p, h2, h3, ul/li, a, strong, em and blockquote.
 */
export function composeArticle(random: Random, topic: string, options: ArticleOptions = {}): string {
  // One shuffled pool per article, so no sentence appears twice in the same body.
  const pool = random.sample(SENTENCES, SENTENCES.length).map((s) => fill(s, topic));
  const take = (count: number): string => pool.splice(0, count).join(' ');
  const parts: string[] = [`<p>${take(3)}</p>`];
  const headings = random.sample(HEADINGS, options.sections ?? 2);
  headings.forEach((heading, i) => {
    parts.push(`<h2>${heading}</h2>`);
    parts.push(`<p>${take(random.int(2, 4))}</p>`);
    if (i === 0) {
      const items = random.sample(LIST_ITEMS, random.int(3, 4));
      parts.push(`<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`);
    } else {
      parts.push(`<blockquote><p>${fill(random.pick(QUOTES), topic)}</p></blockquote>`);
    }
  });
  const link = random.pick(LINKS);
  parts.push(
    `<p>The work on <em>${topic}</em> is part of a <strong>long-term programme</strong> at the institute. ` +
      `Read more about it in <a href="${link.href}">${link.text}</a>.</p>`,
  );
  if (options.practical) parts.push('<h3>Practical information</h3>', `<p>${escapeHtml(options.practical)}</p>`);
  return parts.join('\n');
}

/** Joins `count` distinct sentences from the bank, with `{topic}` filled in. */
export function composeSentences(random: Random, topic: string, count: number): string {
  return random
    .sample(SENTENCES, count)
    .map((s) => fill(s, topic))
    .join(' ');
}

/** Upper-cases the first letter (titles are in sentence case). */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Escapes text for use inside HTML element content or a double-quoted attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Wraps plain paragraphs (one per string) in <p> tags. */
export function paragraphs(texts: readonly string[]): string {
  return texts.map((t) => `<p>${t}</p>`).join('\n');
}

// --- internal ---

function fill(template: string, topic: string): string {
  return template.replace(/\{topic\}/g, topic);
}
