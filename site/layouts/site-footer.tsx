import type { ReactElement } from 'react';
import { useSite } from '../../runtime/index.ts';
import type { SiteQueryResult } from '../queries/site.ts';
import { NavLink } from './site-header.tsx';

/** Contact details and secondary links, the same on every page. */
export function SiteFooter(): ReactElement {
  const { site } = useSite<SiteQueryResult>();
  const { contact } = site;
  return (
    <footer className="site-footer">
      <div className="site-footer__inner">
        <section className="site-footer__contact" aria-labelledby="footer-contact-title">
          <h2 id="footer-contact-title" className="site-footer__title">
            {site.name}
          </h2>
          <address className="site-footer__address">
            {contact.address}
            <br />
            {contact.postalCode} {contact.city}
            <br />
            {contact.country}
          </address>
          <p className="site-footer__lines">
            <a href={`tel:${contact.phone.replace(/[^+\d]/g, '')}`}>{contact.phone}</a>
            <br />
            <a href={`mailto:${contact.email}`}>{contact.email}</a>
          </p>
          {contact.openingHours ? <p className="site-footer__hours">{contact.openingHours}</p> : null}
        </section>
        {site.footer.length > 0 ? (
          <nav className="site-footer__nav" aria-label="Footer">
            <ul className="site-footer__links">
              {site.footer.map((item) => (
                <li key={item.href}>
                  <NavLink item={item} current={false} />
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
        <p className="site-footer__tagline">{site.tagline}</p>
      </div>
    </footer>
  );
}
