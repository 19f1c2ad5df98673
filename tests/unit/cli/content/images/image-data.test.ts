import { describe, expect, it } from 'vitest';
import { imageUrlsIn, withResolvedImages } from '../../../../../cli/content/images/image-data.ts';
import type { ResolvedImageFields } from '../../../../../runtime/shared/images.ts';

const fields = (key: string): ResolvedImageFields => ({
  url: `/media/_img/${key}/1200.jpg`,
  width: 3000,
  height: 4000,
  sources: [{ type: 'image/webp', urls: [`/media/_img/${key}/320.webp`, `/media/_img/${key}/640.webp`], widths: [320, 640] }],
});
const A = 'aaaaaaaaaaaaaaaaaaaa';
const B = 'bbbbbbbbbbbbbbbbbbbb';

describe('images in page data', () => {
  const data = {
    newsItem: {
      title: 'A',
      image: { url: '/media/news/a.jpg', alt: 'A', width: 1200, height: 675 },
      body: '<p>x</p><figure><img src="/media/news/b.png" alt="B &amp; &quot;c&quot;" width="10" height="5" loading="lazy" id="b" /></figure><img src="/media/news/c.svg" alt="" />',
      related: [
        { image: { url: '/media/news/a.jpg', alt: 'A', width: 1, height: 1 } },
        { image: { url: '/media/docs/x.svg', alt: '', width: 1, height: 1 } },
      ],
    },
    other: { url: '/media/news/d.jpg' },
  };

  it('finds each raster image a field or rich text shows, once; not SVG, not a bare URL field', () => {
    expect(imageUrlsIn(data)).toEqual(['/media/news/a.jpg', '/media/news/b.png']);
  });

  it('resolves image fields and rich-text images, and leaves what holds none as it was', () => {
    const resolved = new Map([
      ['/media/news/a.jpg', fields(A)],
      ['/media/news/b.png', fields(B)],
    ]);
    const out = withResolvedImages(data, resolved, '50vw');
    expect(out.newsItem.image).toEqual({ alt: 'A', ...fields(A) });
    expect(out.newsItem.related[0]!.image).toEqual({ alt: 'A', ...fields(A) });
    expect(out.newsItem.related[1]).toBe(data.newsItem.related[1]);
    expect(out.other).toBe(data.other);
    expect(out.newsItem.body).toBe(
      `<p>x</p><figure><img src="/media/_img/${B}/1200.jpg" srcset="/media/_img/${B}/320.webp 320w, /media/_img/${B}/640.webp 640w" sizes="50vw" alt="B &amp; &quot;c&quot;" width="3000" height="4000" loading="lazy" decoding="async" id="b" /></figure><img src="/media/news/c.svg" alt="" />`,
    );
    // The input is not changed.
    expect(data.newsItem.image.url).toBe('/media/news/a.jpg');
  });
});
