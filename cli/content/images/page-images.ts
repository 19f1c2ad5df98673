import type { ResolvedImageFields } from '../../../runtime/shared/images.ts';
import { MediaRefused } from '../media-download.ts';
import { ImageRefused } from './image-codec.ts';
import { imageUrlsIn, withResolvedImages } from './image-data.ts';
import type { ImagePipeline } from './images.ts';

/** A page's data with its images resolved, or null when it shows none (the page goes on at once). */
export type ResolvePageImages = (data: unknown) => Promise<unknown> | null;

/** An image of the page that could not be resolved: the page fails, naming the image and why. */
export class PageImageFailed extends Error {
  constructor(
    readonly url: string,
    message: string,
    readonly fix: string,
  ) {
    super(`${url}: ${message}`);
  }
}

/** Resolves the images of each page's data with `pipeline`; `richTextSizes` is the `sizes` of images in rich text. */
export function pageImageResolver(pipeline: ImagePipeline, richTextSizes: string): ResolvePageImages {
  return (data) => {
    const urls = imageUrlsIn(data);
    if (urls.length === 0) return null;
    return Promise.all(
      urls.map((url) =>
        pipeline.resolve(url).then(
          (fields): [string, ResolvedImageFields] => [url, fields],
          (cause: unknown) => {
            const message = (cause as Error).message;
            const fix =
              cause instanceof ImageRefused
                ? cause.fix
                : cause instanceof MediaRefused && /Content-Type/.test(message)
                  ? 'Upload the image as JPEG, PNG, WebP, AVIF or GIF with a matching Content-Type.'
                  : 'Check that the backend serves this image, or remove it from the content.';
            throw new PageImageFailed(url, message, fix);
          },
        ),
      ),
    ).then((entries) => withResolvedImages(data, new Map(entries), richTextSizes));
  };
}
