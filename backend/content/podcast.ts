/**
 * Sample podcast: eight hand-written episodes, monthly from 2026. The audio files are two-second tones
 * (enough to test players and downloads), while `duration` states the length of the real episode.
 */
import type { MediaRegistry } from './media-refs.ts';
import type { EpisodeEntry } from './types.ts';
import { slugify } from './slugs.ts';

/** [title, summary, duration in seconds] */
const EPISODES: readonly (readonly [string, string, number])[] = [
  [
    'What the machine heard',
    'Two researchers play back a week of recordings made by the city’s traffic sensors and ask what was lost.',
    1860,
  ],
  ['Weaving a computer', 'On looms, punch cards and the craft knowledge that computing forgot.', 2230],
  ['The tapes in the basement', 'The archivist tells the story of four hundred video tapes and the workshop that made them.', 2540],
  ['Dancing with robots', 'A choreographer and an engineer on rehearsing with a machine that cannot improvise.', 1975],
  ['Weather as material', 'Turning fifty years of rain and wind measurements into an installation.', 2110],
  ['Repair as a practice', 'Why the institute’s studios run on second-hand equipment, and what that teaches students.', 1720],
  ['Who wrote this wall text?', 'A curator and a computer scientist on authorship, language models and the exhibition label.', 2890],
  ['Listening walks', 'Recorded on a walk along the harbour: how paying attention to sound changes a familiar place.', 2005],
];

/** Builds the sample episodes, numbered from 1 (oldest). */
export function createEpisodes(media: MediaRegistry): EpisodeEntry[] {
  return EPISODES.map(([title, summary, duration], i) => {
    const number = i + 1;
    const publishedAt = `2026-${String(2 + i).padStart(2, '0')}-05T06:00:00Z`;
    return {
      id: `episode-${number}`,
      slug: slugify(title),
      title,
      updatedAt: publishedAt,
      status: 'PUBLISHED',
      number,
      publishedAt,
      duration,
      audioUrl: media.audio(number, 2),
      summary,
    };
  });
}
