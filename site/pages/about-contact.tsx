import type { ReactElement } from 'react';
import { useSite, type PageProps } from '../../runtime/index.ts';
import { EditorialBody } from '../components/editorial.tsx';
import { PageHeader } from '../components/page-header.tsx';
import { requireItem } from '../data/require-item.ts';
import type { PageResult } from '../queries/pages.ts';
import type { SiteQueryResult } from '../queries/site.ts';
import { ABOUT_CRUMB, AboutNav } from '../components/about-nav.tsx';
import { PhoneLink, PostalAddress } from '../components/contact.tsx';

/** `/about/contact`: how to reach the institute. The details are site data, shared with the footer. */
export default function AboutContactPage({ data }: PageProps<PageResult>): ReactElement {
  const page = requireItem(data.page, 'The contact page');
  const { site } = useSite<SiteQueryResult>();
  const { contact } = site;
  return (
    <article className="editorial-page">
      <PageHeader title={page.title} lead={page.summary} breadcrumbs={[ABOUT_CRUMB, { label: page.title }]} />
      <AboutNav current="/about/contact" />
      <section className="contact-card" aria-labelledby="contact-details-title">
        <h2 id="contact-details-title" className="contact-card__title">
          Contact details
        </h2>
        <dl className="details">
          <div className="details__row">
            <dt>Address</dt>
            <dd>
              <PostalAddress contact={contact} name={site.name} />
            </dd>
          </div>
          <div className="details__row">
            <dt>Phone</dt>
            <dd>
              <PhoneLink phone={contact.phone} />
            </dd>
          </div>
          <div className="details__row">
            <dt>Email</dt>
            <dd>
              <a href={`mailto:${contact.email}`}>{contact.email}</a>
            </dd>
          </div>
          {contact.openingHours ? (
            <div className="details__row">
              <dt>Opening hours</dt>
              <dd>{contact.openingHours}</dd>
            </div>
          ) : null}
        </dl>
      </section>
      <EditorialBody page={page} />
    </article>
  );
}
