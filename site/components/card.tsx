import type { ReactElement, ReactNode } from 'react';
import { Link } from '../../runtime/index.ts';
import type { ImageData } from '../queries/common.ts';
import { Picture } from './image.tsx';

export interface CardProps {
  href: string;
  title: string;
  /** Date, category or other context, shown above the title. */
  meta?: ReactNode;
  image?: ImageData | null;
  /** Cards sit under a section's `<h2>` on the home page and directly under the `<h1>` elsewhere. */
  headingLevel?: 2 | 3;
  /** Load the image straight away: for the first card of a page, whose image is often its largest paint. */
  eager?: boolean;
  children?: ReactNode;
}

/**
 * A teaser for an item with its own page. The title is the only link (one tab stop per card); CSS
 * stretches its hit area over the whole card.
 */
export function Card({ href, title, meta, image, headingLevel = 2, eager = false, children }: CardProps): ReactElement {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className={image ? 'card card--with-image' : 'card'}>
      {image ? <Picture image={image} slot="card" className="card__image" eager={eager} /> : null}
      <div className="card__body">
        <Heading className="card__title">
          <Link href={href} className="card__link">
            {title}
          </Link>
        </Heading>
        {meta ? <div className="card__meta">{meta}</div> : null}
        {children ? <div className="card__text">{children}</div> : null}
      </div>
    </article>
  );
}

/** A responsive grid of cards. */
export function CardGrid({ children }: { children: ReactNode }): ReactElement {
  return <div className="card-grid">{children}</div>;
}
