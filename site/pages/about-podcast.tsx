import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { ABOUT_CRUMB, AboutNav } from '../components/about-nav.tsx';
import { FormattedDate } from '../components/date.tsx';
import { EditorialBody } from '../components/editorial.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { formatDuration, isoDuration } from '../format/numbers.ts';
import { requireItem } from '../data/require-item.ts';
import type { AboutPodcastResult, PodcastEpisodeData } from '../queries/podcast.ts';
import { contentId } from '../../runtime/shared/content-ids.ts';

/** `/about/podcast`: the podcast's introduction and its newest episodes, each playable in place. */
export default function AboutPodcastPage({ data }: PageProps<AboutPodcastResult>): ReactElement {
  const page = requireItem(data.page, 'The podcast page');
  const { nodes, totalCount } = data.podcastEpisodes;
  return (
    <article className="editorial-page">
      <PageHeader title={page.title} lead={page.summary} breadcrumbs={[ABOUT_CRUMB, { label: page.title }]} />
      <AboutNav current="/about/podcast" />
      <EditorialBody page={page} />
      <section className="episodes" aria-labelledby="episodes-title">
        <h2 id="episodes-title">Episodes</h2>
        {nodes.length === 0 ? (
          <EmptyState>No episodes have been published yet.</EmptyState>
        ) : (
          <>
            <ListCount shown={nodes.length} total={totalCount} noun="episode" />
            <ol className="episode-list">
              {nodes.map((episode) => (
                <li key={episode.id}>
                  <Episode episode={episode} />
                </li>
              ))}
            </ol>
          </>
        )}
      </section>
    </article>
  );
}

function Episode({ episode }: { episode: PodcastEpisodeData }): ReactElement {
  const titleId = contentId(`episode-${episode.slug}-title`);
  return (
    <article className="episode" aria-labelledby={titleId}>
      <p className="episode__number" aria-hidden="true">
        {episode.number}
      </p>
      <div className="episode__body">
        <h3 id={titleId} className="episode__title">
          <span className="visually-hidden">Episode {episode.number}: </span>
          {episode.title}
        </h3>
        <p className="episode__meta">
          <FormattedDate value={episode.publishedAt} />
          <time dateTime={isoDuration(episode.duration)}>{formatDuration(episode.duration)}</time>
        </p>
        {episode.summary ? <p className="episode__summary">{episode.summary}</p> : null}
        {/* preload="none": a list of episodes must not download every file on page load. */}
        <audio
          className="episode__player"
          controls
          preload="none"
          src={episode.audioUrl}
          aria-label={`Play episode ${episode.number}: ${episode.title}`}
        >
          <a href={episode.audioUrl}>Download episode {episode.number}</a>
        </audio>
      </div>
    </article>
  );
}
