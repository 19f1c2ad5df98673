import type { ReactElement } from 'react';
import type { PageHead } from '../../runtime/routes.ts';
import { srcsetOf } from '../../runtime/shared/images.ts';
import type { ImageData } from '../queries/common.ts';

/**
 * Where a page shows an image, and so which of its derivatives a browser needs: `sizes` says how wide the
 * slot is at each viewport (site/styles), `maxWidth` the most device pixels it ever shows (the slot's
 * widest at device pixel ratio 3, or 2 for desktop-only widths), past which candidates are left out of
 * the srcset. docs/site-authoring.md#images says how to add one.
 */
export const IMAGE_SLOTS = {
  /** A card in a card grid: one column on a phone, up to four of about 17–24rem beside each other. */
  card: { sizes: '(min-width: 78rem) 24rem, (min-width: 40rem) 45vw, calc(100vw - 2.5rem)', maxWidth: 1080 },
  /** The image at the top of an article or event: the text column's width. */
  hero: { sizes: '(min-width: 52rem) 48rem, calc(100vw - 2.5rem)', maxWidth: 1600 },
  /** A person's round photo, 5rem across. */
  portrait: { sizes: '5rem', maxWidth: 240 },
  /** An image inside rich text: the prose column's width (site.config.ts gives it to the build). */
  inline: { sizes: '(min-width: 52rem) 48rem, calc(100vw - 2.5rem)', maxWidth: 1600 },
  /** A search result's thumbnail. */
  search: { sizes: '6rem', maxWidth: 320 },
} as const satisfies Record<string, { sizes: string; maxWidth: number }>;

export type ImageSlot = keyof typeof IMAGE_SLOTS;

export interface PictureProps {
  image: ImageData;
  /** Where the image stands on the page (IMAGE_SLOTS): which widths its srcset offers and how wide it shows. */
  slot: ImageSlot;
  /** Used when the backend gives an image no alt text of its own, e.g. a person's name for their photo. */
  fallbackAlt?: string;
  className?: string;
  /** The first large image of a page loads eagerly and first: it is usually the largest contentful paint. */
  eager?: boolean;
}

/**
 * An image with its real intrinsic size, so the layout does not shift while it loads, and the derivatives
 * the build made of it (runtime/shared/images.ts): a srcset the browser picks the smallest sufficient file
 * from, in the most preferred format it supports.
 */
export function Picture({ image, slot, fallbackAlt = '', className, eager = false }: PictureProps): ReactElement {
  const { sizes, maxWidth } = IMAGE_SLOTS[slot];
  const sources = image.sources ?? [];
  const responsive = imgSrcset(image, slot);
  const img = (
    <img
      src={image.url}
      srcSet={responsive?.srcset}
      sizes={responsive?.sizes}
      alt={image.alt || fallbackAlt}
      width={image.width}
      height={image.height}
      className={className}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
    />
  );
  if (sources.length < 2) return img;
  return (
    <picture>
      {sources.slice(0, -1).map((source) => (
        <source key={source.type} type={source.type} srcSet={srcsetOf(source, maxWidth)} sizes={sizes} />
      ))}
      {img}
    </picture>
  );
}

/**
 * The head's preload of a page's largest image (PageHead.preloadImage), with the srcset and sizes its
 * `Picture` in `slot` has, so the browser fetches the very file the `<img>` then takes.
 */
export function imagePreload(image: ImageData, slot: ImageSlot): PageHead['preloadImage'] {
  // With several formats the <picture> picks by type, which a preload cannot say: none then.
  if (image.sources && image.sources.length > 1) return undefined;
  return { href: image.url, ...imgSrcset(image, slot) };
}

/** The `<img>`'s own srcset and sizes in `slot`: its last source, the most widely supported format; none for an image without derivatives. */
function imgSrcset(image: ImageData, slot: ImageSlot): { srcset: string; sizes: string } | undefined {
  const last = image.sources?.at(-1);
  const { sizes, maxWidth } = IMAGE_SLOTS[slot];
  return last ? { srcset: srcsetOf(last, maxWidth), sizes } : undefined;
}
