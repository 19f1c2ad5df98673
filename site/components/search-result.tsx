import { Fragment, type ReactElement } from 'react';
import { Link } from '../../runtime/index.ts';
import type { PagefindResultData } from '../data/pagefind.ts';
import { excerptParts } from '../data/search-excerpt.ts';
import { sectionLabel } from '../data/search-sections.ts';
import { FormattedDate } from './date.tsx';

/**
 * One result of the site search: its title as a link, its section and date, and the excerpt with the
 * matched words marked. The excerpt is rendered as text (search-excerpt.ts), never as HTML.
 */
export function SearchResult({ result }: { result: PagefindResultData }): ReactElement {
  const section = result.filters.section?.[0];
  const { title, date, image } = result.meta;
  return (
    <article className="search-result">
      {image ? <img className="search-result__image" src={image} alt="" width="96" height="64" loading="lazy" decoding="async" /> : null}
      <div className="search-result__body">
        <h2 className="search-result__title">
          <Link href={result.url}>{title || result.url}</Link>
        </h2>
        <p className="search-result__meta">
          {section ? <span className="search-result__section">{sectionLabel(section)}</span> : null}
          {date ? <FormattedDate value={date} /> : null}
        </p>
        <p className="search-result__excerpt">
          {excerptParts(result.excerpt).map((part, i) =>
            part.mark ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>,
          )}
        </p>
      </div>
    </article>
  );
}
