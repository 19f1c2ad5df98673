import { describe, expect, it } from 'vitest';
import { MEDIA_EXTENSIONS, mediaDisposition, refusedContentType, refusedExtension } from '../../../../cli/content/media-types.ts';

/**
 * Media are served from the site's origin, where the editor's token lives: no file the build re-hosts may
 * be one a browser runs as a page or a script (cli/content/media-types.ts).
 */
describe('the media allowlist', () => {
  const documentExtensions = [
    'html',
    'htm',
    'shtml',
    'xhtml',
    'xht',
    'xml',
    'xsl',
    'xslt',
    'svgz',
    'js',
    'mjs',
    'cjs',
    'css',
    'swf',
    'php',
    'mht',
    'mhtml',
    'hta',
    'wasm',
    'json',
    'jsonld',
    'appcache',
    'manifest',
    'vtt',
  ];
  const documentTypes = [
    'text/html',
    'application/xhtml+xml',
    'application/xml',
    'text/xml',
    'image/svg+xml+html',
    'text/javascript',
    'application/javascript',
    'text/css',
    'application/x-shockwave-flash',
    'multipart/related',
    'application/wasm',
    'application/json',
  ];

  it.each(documentExtensions)('refuses .%s, a type a browser could run as a page or a script', (ext) => {
    expect(refusedExtension(`media/a/file.${ext}`)).toMatch(new RegExp(`^\\.${ext} files are not among the media types`));
    expect(refusedExtension(`media/a/FILE.${ext.toUpperCase()}`)).not.toBeNull();
    expect(refusedContentType(`media/a/file.${ext}`, 'text/plain')).not.toBeNull();
  });

  it('refuses a file without an extension', () => {
    expect(refusedExtension('media/a/file')).toBe('the file has no extension, so its type is unknown');
  });

  it('accepts no document or script Content-Type for any allowed extension', () => {
    expect(MEDIA_EXTENSIONS.length).toBeGreaterThan(30);
    for (const ext of MEDIA_EXTENSIONS) {
      expect(refusedExtension(`media/x.${ext}`), ext).toBeNull();
      for (const type of documentTypes) expect(refusedContentType(`media/x.${ext}`, type), `${ext} as ${type}`).not.toBeNull();
      expect(refusedContentType(`media/x.${ext}`, null), `${ext} without a type`).toMatch(/Content-Type \(none\)/);
    }
  });

  it('accepts a type that agrees with the extension, whatever its case and parameters, and refuses one that does not', () => {
    expect(refusedContentType('media/a.png', 'image/png')).toBeNull();
    expect(refusedContentType('media/a.PNG', 'IMAGE/PNG; charset=binary')).toBeNull();
    expect(refusedContentType('media/a.csv', 'text/plain; charset=utf-8')).toBeNull();
    expect(refusedContentType('media/a.png', ' image/png ; q=1')).toBeNull();
    expect(refusedContentType('media/a.png', 'image/jpeg')).toBe(
      'the backend answered with Content-Type image/jpeg, which does not agree with .png (expected image/png)',
    );
    expect(refusedContentType('media/a.ico', 'text/html')).toBe(
      'the backend answered with Content-Type text/html, which does not agree with .ico (expected image/x-icon or image/vnd.microsoft.icon)',
    );
  });

  it('downloads, rather than shows, the media a browser could show as a document of the origin', () => {
    expect(['a.svg', 'a.SVG', 'a.txt', 'a.csv'].map(mediaDisposition)).toEqual(['attachment', 'attachment', 'attachment', 'attachment']);
    expect(['a.png', 'a.pdf', 'a.mp4', 'a.mp3'].map(mediaDisposition)).toEqual([null, null, null, null]);
  });
});
