import type { ReactElement } from 'react';
import type { PageProps } from '../../runtime/index.ts';
import { FormattedDate } from '../components/date.tsx';
import { EmptyState, ListCount } from '../components/list-count.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { Pagination } from '../components/pagination.tsx';
import { groupBy } from '../data/grouping.ts';
import { pageCount, pageNumber } from '../data/paging.ts';
import { listTrail } from '../data/trails.ts';
import { LIST_PAGE_SIZE } from '../queries/document.ts';
import { fileTypeLabel, formatFileSize } from '../format/numbers.ts';
import type { DocumentData, DocumentsResult } from '../queries/documents.ts';

/** `/documents` and its later pages: downloadable files under one heading per category (the API orders them that way). */
export default function DocumentsPage({ data, params }: PageProps<DocumentsResult>): ReactElement {
  const { nodes, totalCount } = data.documents;
  const page = pageNumber(params);
  const categories = groupBy(nodes, (doc) => doc.category.slug);
  return (
    <div className="list-page">
      <PageHeader
        title="Documents"
        lead="Annual reports, regulations, forms and other documents to download."
        breadcrumbs={page > 1 ? listTrail('Documents', '/documents', page) : undefined}
      />
      {nodes.length === 0 ? (
        <EmptyState>No documents have been published yet.</EmptyState>
      ) : (
        <>
          <ListCount shown={nodes.length} total={totalCount} noun="document" first={(page - 1) * LIST_PAGE_SIZE + 1} />
          {categories.map(({ key, items }) => {
            const category = items[0]?.category;
            return (
              <section key={key} className="document-group" aria-labelledby={`documents-${key}`}>
                <h2 id={`documents-${key}`} className="document-group__title">
                  {category?.title ?? key}
                </h2>
                {category?.description ? <p className="document-group__description">{category.description}</p> : null}
                <ul className="document-list">
                  {items.map((doc) => (
                    <li key={doc.id}>
                      <DocumentRow doc={doc} />
                    </li>
                  ))}
                </ul>
              </section>
            );
          })}
          <Pagination base="/documents" page={page} pageCount={pageCount(totalCount, LIST_PAGE_SIZE)} label="Document pages" />
        </>
      )}
    </div>
  );
}

function DocumentRow({ doc }: { doc: DocumentData }): ReactElement {
  const type = fileTypeLabel(doc.mimeType);
  return (
    <article className="document">
      <span className="document__type" aria-hidden="true">
        {type}
      </span>
      <div className="document__body">
        <h3 className="document__title">
          <a href={doc.url} download>
            {doc.title}
            <span className="visually-hidden">
              {' '}
              ({type}, {formatFileSize(doc.size)})
            </span>
          </a>
        </h3>
        {doc.description ? <p className="document__description">{doc.description}</p> : null}
        <p className="document__meta">
          <span>{type}</span>
          <span>{formatFileSize(doc.size)}</span>
          <span>
            Published <FormattedDate value={doc.publishedAt} style="short" />
          </span>
        </p>
      </div>
    </article>
  );
}
