/**
 * Site settings, the home page's own text and the six editorial pages (about, people, contact, podcast,
 * about-large, artistic-research). All hand-written; shared by the sample and the scaled content.
 */
import type { HomeInfo, PageEntry, PageSectionEntry, SiteInfo } from './types.ts';
import { ABOUT_LARGE_SECTIONS } from './about-large.ts';
import { paragraphs } from './prose.ts';

/** The institute's name as shown in the header and titles. */
export const INSTITUTE_NAME = 'Northlight Institute for Art, Media and Technology';

/** Site settings: navigation, footer and contact details. */
export const SITE: SiteInfo = {
  name: INSTITUTE_NAME,
  tagline: 'Research and education where art meets technology',
  description:
    'The Northlight Institute is an independent research institute for art, media and technology, with studios, an archive and a public programme on the harbour.',
  url: 'https://institute.example',
  language: 'en',
  timeZone: 'Europe/Oslo',
  navigation: [
    { label: 'News', href: '/news' },
    { label: 'Events', href: '/events' },
    { label: 'Publications', href: '/publications' },
    { label: 'Courses', href: '/courses' },
    { label: 'Research', href: '/research' },
    { label: 'Documents', href: '/documents' },
    { label: 'About', href: '/about' },
  ],
  footer: [
    { label: 'About the institute', href: '/about' },
    { label: 'History and mission', href: '/about/about-large' },
    { label: 'People', href: '/about/people' },
    { label: 'Artistic research', href: '/about/artistic-research' },
    { label: 'Podcast', href: '/about/podcast' },
    { label: 'Contact', href: '/about/contact' },
  ],
  contact: {
    address: 'Glassworks Quay 14',
    postalCode: '0150',
    city: 'Harbourside',
    country: 'Norway',
    phone: '+47 22 00 41 00',
    email: 'info@institute.example',
    openingHours: 'Tuesday–Sunday 10:00–17:00, Thursday until 21:00',
  },
};

/** The home page's own fields. */
export const HOME: HomeInfo = {
  title: 'Northlight Institute',
  intro:
    'We are an independent institute for research and education in art, media and technology. Visit our studios and exhibitions, join a lecture or a course, or explore thirty years of media art in the archive.',
  updatedAt: '2026-10-01T08:00:00Z',
};

/** The six editorial pages. */
export const PAGES: readonly PageEntry[] = [
  page(
    'about',
    'About the institute',
    'An independent institute for art, media and technology, on the harbour since 1994.',
    [
      'The Northlight Institute brings together artists, researchers, engineers and archivists to study how art and technology shape each other. We run <strong>research projects</strong>, <strong>study programmes</strong>, an <strong>archive</strong> and a public programme of exhibitions, concerts and lectures.',
      'Read more about our <a href="/about/about-large">history and mission</a>, meet the <a href="/about/people">people</a>, or listen to the <a href="/about/podcast">podcast</a>.',
    ],
    [
      section('what-we-do', 'What we do', [
        'Research, education, collections and a public programme, all under one roof.',
        'Everything we make is published openly.',
      ]),
      section('where-we-are', 'Where we are', ['In a former glassworks on the harbour, ten minutes from the central station.']),
    ],
  ),
  page('people', 'People', 'Researchers, artists, technicians and staff at the institute.', [
    'Around sixty people work at Northlight. Below are the researchers, teachers and staff you are most likely to meet. For general questions, use the <a href="/about/contact">contact page</a>.',
  ]),
  page(
    'contact',
    'Contact',
    'How to reach us and visit the building.',
    [
      'Northlight Institute, Glassworks Quay 14, 0150 Harbourside, Norway.',
      'Phone +47 22 00 41 00, email <a href="mailto:info@institute.example">info@institute.example</a>. The reception is staffed Tuesday to Friday, 09:00 to 16:00.',
    ],
    [
      section('opening-hours', 'Opening hours', [
        'Tuesday to Sunday 10:00–17:00; Thursday until 21:00. Closed on Mondays and public holidays.',
      ]),
      section('getting-here', 'Getting here', [
        'A ten-minute walk from the central station along the harbour promenade. Bicycle parking is in the courtyard.',
        'The building is step-free throughout.',
      ]),
      section('press', 'Press', [
        'Journalists can reach the communications team at <a href="mailto:press@institute.example">press@institute.example</a>.',
      ]),
    ],
  ),
  page('podcast', 'Podcast', 'Conversations from the studios, the archive and the stage.', [
    'In the Northlight podcast, researchers and artists talk about work in progress: what they are trying, what failed and what they learnt. A new episode appears on the first Thursday of each month.',
    '<em>Listen below or subscribe in your podcast app.</em>',
  ]),
  page(
    'about-large',
    'History and mission',
    'Thirty years of art, media and technology on the harbour: where we come from and what we do.',
    [
      'This page tells the longer story of the institute, from a shared workshop in a disused glassworks to an independent foundation with studios, an archive and study programmes.',
    ],
    ABOUT_LARGE_SECTIONS,
  ),
  page(
    'artistic-research',
    'Artistic research',
    'Projects in which the artwork is the main result of the research.',
    [
      'In artistic research the work of art is not an illustration of findings made elsewhere: it is where the research happens. About a third of our projects work this way.',
      'Each artistic research project is presented publicly, documented in a written reflection and reviewed by peers from both art and academia.',
    ],
    [
      section('how-we-work', 'How we work', [
        'Projects are led jointly by an artist and a researcher, with at least one public presentation each year.',
        'Documentation and reflections are published openly.',
      ]),
      section('assessment', 'Assessment', ['Artistic research outcomes are assessed by a panel that includes practising artists.']),
    ],
  ),
];

// --- internal ---

function page(
  slug: string,
  title: string,
  summary: string,
  body: readonly string[],
  sections: readonly PageSectionEntry[] = [],
): PageEntry {
  return {
    id: `page-${slug}`,
    slug,
    title,
    updatedAt: '2026-09-01T08:00:00Z',
    status: 'PUBLISHED',
    summary,
    body: paragraphs(body),
    sections,
  };
}

function section(id: string, title: string, texts: readonly string[]): PageSectionEntry {
  return { id, title, body: paragraphs(texts) };
}
