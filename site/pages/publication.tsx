import type { ReactElement } from 'react';
import { Link, type PageProps } from '../../runtime/index.ts';
import { Citation } from '../components/citation.tsx';
import { Paragraphs } from '../components/editorial.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { PeopleNames } from '../components/people.tsx';
import { requireItem } from '../data/require-item.ts';
import { PUBLICATIONS_CRUMB } from '../data/trails.ts';
import { bareDoi, doiUrl } from '../format/citation.ts';
import { fileTypeLabel, formatFileSize } from '../format/numbers.ts';
import type { PublicationResult } from '../queries/publications.ts';

/** `/publication/:category/:slug`: one publication: who wrote it, where it appeared, how to read it and how to cite it. */
export default function PublicationPage({ data }: PageProps<PublicationResult>): ReactElement {
  const publication = requireItem(data.publication, 'The publication');
  const categoryHref = `/publication/${publication.category.slug}`;
  return (
    <article className="article article--publication">
      <PageHeader
        title={publication.title}
        kicker={<Link href={categoryHref}>{publication.category.title}</Link>}
        breadcrumbs={[PUBLICATIONS_CRUMB, { label: publication.category.title, href: categoryHref }, { label: publication.title }]}
      >
        {publication.authors.length > 0 ? (
          <p className="byline">
            By <PeopleNames people={publication.authors} linked />
          </p>
        ) : null}
      </PageHeader>
      <dl className="details">
        <div className="details__row">
          <dt>Year</dt>
          <dd>{publication.year}</dd>
        </div>
        {publication.publisher ? (
          <div className="details__row">
            <dt>Publisher</dt>
            <dd>{publication.publisher}</dd>
          </div>
        ) : null}
        {publication.doi ? (
          <div className="details__row">
            <dt>DOI</dt>
            <dd>
              <a href={doiUrl(publication.doi)} rel="noopener noreferrer">
                {bareDoi(publication.doi)}
              </a>
            </dd>
          </div>
        ) : null}
      </dl>
      {publication.abstract ? (
        <section className="abstract" aria-labelledby="abstract-title">
          <h2 id="abstract-title">Abstract</h2>
          <Paragraphs text={publication.abstract} className="prose" />
        </section>
      ) : null}
      {publication.file ? (
        <p className="download">
          <a className="button" href={publication.file.url} download>
            Download {publication.file.title}
          </a>{' '}
          <span className="download__info">
            {fileTypeLabel(publication.file.mimeType)}, {formatFileSize(publication.file.size)}
          </span>
        </p>
      ) : null}
      <Citation item={publication} />
    </article>
  );
}
