import type { ReactElement } from 'react';
import { SharedMarkup, useSite } from '../../runtime/index.ts';
import { PhoneLink, PostalAddress } from '../components/contact.tsx';
import { EVENTS_FEED, NEWS_FEED } from '../data/feeds.ts';
import type { SiteQueryResult } from '../queries/site.ts';
import { NavLink } from './site-header.tsx';

/** Contact details, secondary links and the feeds, the same on every page. */
export function SiteFooter(): ReactElement {
  const { site } = useSite<SiteQueryResult>();
  const { contact } = site;
  // The same on every page: rendered once per build.
  return (
    <SharedMarkup cacheKey="site-footer">
      <footer className="site-footer">
        <div className="site-footer__inner">
          <section className="site-footer__contact" aria-labelledby="footer-contact-title">
            <h2 id="footer-contact-title" className="site-footer__title">
              {site.name}
            </h2>
            <PostalAddress contact={contact} className="site-footer__address" />
            <p className="site-footer__lines">
              <PhoneLink phone={contact.phone} />
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
          <section className="site-footer__follow" aria-labelledby="footer-follow-title">
            <h2 id="footer-follow-title" className="site-footer__title">
              Follow
            </h2>
            {/* Plain links: feeds are files, which the runtime leaves to the browser. */}
            <ul className="site-footer__links">
              {[NEWS_FEED, EVENTS_FEED].map((feed) => (
                <li key={feed.href}>
                  <a href={feed.href} type={feed.type} className="feed-link">
                    {feed.title}
                  </a>
                </li>
              ))}
            </ul>
          </section>
          <p className="site-footer__tagline">{site.tagline}</p>
        </div>
      </footer>
    </SharedMarkup>
  );
}
