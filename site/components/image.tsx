import type { ReactElement } from 'react';
import type { ImageData } from '../queries/common.ts';

export interface PictureProps {
  image: ImageData;
  /** Used when the backend gives an image no alt text of its own, e.g. a person's name for their photo. */
  fallbackAlt?: string;
  className?: string;
  /** The first large image of a page loads eagerly: it is usually the largest contentful paint. */
  eager?: boolean;
}

/** An image with intrinsic size, so the layout does not shift while it loads. */
export function Picture({ image, fallbackAlt = '', className, eager = false }: PictureProps): ReactElement {
  return (
    <img
      src={image.url}
      alt={image.alt || fallbackAlt}
      width={image.width}
      height={image.height}
      className={className}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
    />
  );
}
