/**
 * The long "about" page: a hand-written history and description of the institute in seven sections.
 * It exists to exercise long pages, in-page anchors (section ids) and the table of contents.
 */
import type { PageSectionEntry } from './types.ts';
import { paragraphs } from './prose.ts';

/** The sections of the about-large page, in reading order; ids are valid HTML anchors. */
export const ABOUT_LARGE_SECTIONS: readonly PageSectionEntry[] = [
  {
    id: 'history',
    title: 'History',
    body: paragraphs([
      'The Northlight Institute was founded in 1994 by a group of artists, engineers and librarians who shared a disused glassworks on the harbour. They wanted a place where new media could be made, studied and kept, without having to choose between the three.',
      'For its first decade the institute was run almost entirely by volunteers. Equipment was borrowed, repaired or built from scratch, and the programme was decided at a monthly open meeting.',
      'In 2006 the institute became an independent foundation with public funding for research and education. The open meeting survives as the <em>programme forum</em>, which anyone may attend.',
    ]),
  },
  {
    id: 'mission',
    title: 'Mission',
    body: paragraphs([
      'We investigate how art, media and technology shape one another, and we do it in public. Research at Northlight is carried out in studios that visitors can walk into, and its results are published openly.',
      'We believe that artists have something particular to offer the study of technology: a habit of using tools against their grain, and of paying attention to what is usually overlooked.',
      'We also believe that institutions should be careful with the technologies they adopt. Our own infrastructure is chosen to be repairable, long-lived and, where possible, shared.',
    ]),
  },
  {
    id: 'research',
    title: 'Research',
    body: paragraphs([
      'Research is organised in projects of two to five years, each led by a pair of an artist and a researcher. Projects range from <a href="/research">machine listening</a> to the preservation of software-based art.',
      'Around a third of our projects are <strong>artistic research</strong>, in which the artwork itself is the main result. These are presented on the <a href="/about/artistic-research">artistic research page</a>.',
      'All projects publish their results under open licences, and most keep a public notebook while the work is in progress.',
    ]),
  },
  {
    id: 'education',
    title: 'Education',
    body: paragraphs([
      'The institute offers Bachelor and Master programmes in art and technology in partnership with two universities, as well as a doctoral programme in artistic research.',
      'Teaching happens in small groups and in the same studios as the research. Students are expected to take part in the institute’s public programme, and many of them present their work there for the first time.',
      'Open courses, from live coding for beginners to electronics repair, are available to anyone. See the <a href="/courses">course list</a> for the current term.',
    ]),
  },
  {
    id: 'collections',
    title: 'Archive and collections',
    body: paragraphs([
      'The archive holds more than 12,000 items: video tapes, software, hardware, posters, correspondence and the records of the institute itself.',
      'Our largest single collection is the <em>Harbour Tapes</em>, the archive of an independent video workshop active in the 1970s and 1980s. It was digitised between 2022 and 2026 and is open to researchers by appointment.',
      'We collect actively in three areas: early electronic and video art from the region, software-based art, and the documentation of our own projects.',
    ]),
  },
  {
    id: 'organisation',
    title: 'Organisation and governance',
    body: paragraphs([
      'Northlight is an independent foundation governed by a board of seven members, two of whom are elected by the staff. The director is appointed by the board for a term of four years.',
      'Around sixty people work at the institute, including researchers, doctoral fellows, technicians, archivists and administrative staff. Meet them on the <a href="/about/people">people page</a>.',
      'Our annual reports, policies and plans are published in the <a href="/documents">documents section</a>.',
    ]),
  },
  {
    id: 'visiting',
    title: 'Visiting the institute',
    body: paragraphs([
      'The building is open Tuesday to Sunday. The main hall and the project space are free to enter; concerts and symposia are ticketed.',
      'The building is step-free throughout, with a lift to all floors, hearing loops in the auditorium and a quiet room on the first floor.',
      'Find us at the harbour, a ten-minute walk from the central station. Directions and opening hours are on the <a href="/about/contact">contact page</a>.',
    ]),
  },
];
