import { posix } from 'node:path';

/**
 * Which media the build puts on the site's origin (issue 16.2). The site's editor login shares that
 * origin, and the token lives in a cookie scripts can read, so a file served from it must never run as
 * a document: HTML, JavaScript, CSS, XML/XHTML and unknown types are never written under media/. Each
 * allowed extension lists the Content-Types a backend may answer with for it; an answer whose type does
 * not agree with the extension is refused too (a `.png` answered as `text/html` is a page, not an image).
 * SVG is allowed only as the sanitised copy media-svg.ts makes.
 */
const MEDIA_TYPES: Readonly<Record<string, readonly string[]>> = {
  // Images
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
  gif: ['image/gif'],
  webp: ['image/webp'],
  avif: ['image/avif'],
  ico: ['image/x-icon', 'image/vnd.microsoft.icon'],
  svg: ['image/svg+xml'],
  // Audio
  mp3: ['audio/mpeg', 'audio/mp3'],
  m4a: ['audio/mp4', 'audio/x-m4a'],
  aac: ['audio/aac'],
  ogg: ['audio/ogg'],
  oga: ['audio/ogg'],
  opus: ['audio/ogg', 'audio/opus'],
  wav: ['audio/wav', 'audio/x-wav', 'audio/wave', 'audio/vnd.wave'],
  flac: ['audio/flac', 'audio/x-flac'],
  // Video
  mp4: ['video/mp4'],
  m4v: ['video/mp4', 'video/x-m4v'],
  webm: ['video/webm'],
  ogv: ['video/ogg'],
  mov: ['video/quicktime'],
  // Documents
  pdf: ['application/pdf'],
  txt: ['text/plain'],
  csv: ['text/csv', 'text/plain'],
  doc: ['application/msword'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  xls: ['application/vnd.ms-excel'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ppt: ['application/vnd.ms-powerpoint'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  odt: ['application/vnd.oasis.opendocument.text'],
  ods: ['application/vnd.oasis.opendocument.spreadsheet'],
  odp: ['application/vnd.oasis.opendocument.presentation'],
  epub: ['application/epub+zip'],
  // Archives
  zip: ['application/zip', 'application/x-zip-compressed'],
  gz: ['application/gzip', 'application/x-gzip'],
  tgz: ['application/gzip', 'application/x-gzip'],
  tar: ['application/x-tar'],
  '7z': ['application/x-7z-compressed'],
};

/** The allowed extensions, for error messages and docs/reliability.md. */
export const MEDIA_EXTENSIONS: readonly string[] = Object.keys(MEDIA_TYPES);

/** The lower-case extension of a media file (`media/a/b.PNG` → `png`), or '' without one. */
export function mediaExtension(file: string): string {
  return posix.extname(file).slice(1).toLowerCase();
}

/** Null when a file with this extension may be re-hosted, else why not. */
export function refusedExtension(file: string): string | null {
  const ext = mediaExtension(file);
  if (Object.hasOwn(MEDIA_TYPES, ext)) return null;
  return ext
    ? `.${ext} files are not among the media types the site re-hosts (images, audio, video, PDF, documents, archives): a browser could run them as a page on the site's origin`
    : 'the file has no extension, so its type is unknown';
}

/** Null when the backend's Content-Type agrees with the file's extension, else why not. */
export function refusedContentType(file: string, contentType: string | null): string | null {
  const ext = mediaExtension(file);
  const allowed = MEDIA_TYPES[ext];
  if (!allowed) return refusedExtension(file);
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (allowed.includes(type)) return null;
  return `the backend answered with Content-Type ${type || '(none)'}, which does not agree with .${ext} (expected ${allowed.join(' or ')})`;
}

/**
 * Media a browser would show as a document of the site's origin when opened directly (SVG, even
 * cleaned; plain text and CSV, which a browser without `nosniff` might guess to be HTML) are published
 * with `Content-Disposition: attachment`: opening one downloads it, while `<img>` and links that
 * download still work. Images, audio, video and PDF stay inline.
 */
export function mediaDisposition(file: string): 'attachment' | null {
  return ['svg', 'txt', 'csv'].includes(mediaExtension(file)) ? 'attachment' : null;
}
