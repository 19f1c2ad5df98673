import { createHmac } from 'node:crypto';
import type { ImageSource, ResolvedImageFields } from '../../../runtime/shared/images.ts';
import { derivativeWidths, type ProbedImage } from './image-plan.ts';
import type { ImageService, ImageSettings } from './image-settings.ts';

/**
 * Image URLs signed for imgproxy (https://docs.imgproxy.net/usage/signing_url), for a site whose photo
 * library makes encoding at build time too slow: the same srcset, pointing at the service. The signature
 * is the URL-safe Base64 HMAC-SHA256, keyed with the key, of the salt followed by the path after it;
 * imgproxy refuses any other size or source, so the URLs cannot be used to make it resize at will. Key and
 * salt come from IMGPROXY_KEY and IMGPROXY_SALT (hex) and never reach the output.
 */

/** The signature of `path` (`/rs:…/…`, the part after the signature, leading slash included). */
export function imgproxySignature(path: string, key: Buffer, salt: Buffer): string {
  return createHmac('sha256', key).update(salt).update(path).digest('base64url');
}

/** The signed URL of `source` resized to fit `width` pixels wide (never enlarged) as `extension`. */
export function imgproxyUrl(service: Pick<ImageService, 'url' | 'key' | 'salt'>, source: string, width: number, extension: string): string {
  // Metadata is stripped and EXIF orientation applied by imgproxy's defaults.
  const path = `/rs:fit:${width}:0:0/${Buffer.from(source).toString('base64url')}.${extension}`;
  return `${service.url}/${imgproxySignature(path, service.key, service.salt)}${path}`;
}

/** The fields of an image whose derivatives imgproxy makes (image-plan.ts resolvedFields, for the service). */
export function imgproxyFields(
  service: ImageService,
  source: string,
  image: ProbedImage,
  settings: Pick<ImageSettings, 'widths' | 'formats' | 'fallbackWidth'>,
): ResolvedImageFields {
  const widths = derivativeWidths(image.width, settings.widths);
  return {
    url: imgproxyUrl(service, source, Math.min(image.width, settings.fallbackWidth), image.hasAlpha ? 'png' : 'jpg'),
    width: image.width,
    height: image.height,
    sources: settings.formats.map(
      (format): ImageSource => ({ type: `image/${format}`, urls: widths.map((w) => imgproxyUrl(service, source, w, format)), widths }),
    ),
  };
}
