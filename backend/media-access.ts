/**
 * Who may fetch the media of drafts (issue 16.8). A draft's image or file is as private as the draft: the
 * backend answers 404 for it unless the request carries an editor's token (`Authorization: Bearer`, as
 * the build sends with --drafts) or the key the API put into the URL when it handed that URL to an
 * editor. The key lets an editor's browser show a draft's image with a plain `<img>`, which cannot send
 * headers; it is an HMAC of the path under a secret made at start-up, so it cannot be guessed, opens that
 * one file only, and stops working when the backend restarts.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The query parameter that carries a draft medium's key. */
export const MEDIA_KEY_PARAM = 'key';

/** Access rules for the media of drafts. */
export interface MediaAccess {
  /** The URL to hand out: a draft's medium gets its key when the request may see drafts; anything else is returned as it is. */
  urlFor(url: string, seesDrafts: boolean): string;
  /** Every draft medium's `src`/`href` in an HTML fragment given its key (for editors); other text unchanged. */
  keyedIn(html: string, seesDrafts: boolean): string;
  /** Whether a GET of `path` may be answered: public media always; a draft's with an editor or the path's key. */
  allows(path: string, key: string | null, isEditor: boolean): boolean;
}

/**
 * Creates the access rules for one running backend.
 * @param draftMedia the paths only drafts use as the content stands (guards.ts draftOnlyMedia): asked
 *   on each use, since an edit that publishes a draft or makes an item one changes them
 * @param secret HMAC key @default 32 random bytes
 */
export function createMediaAccess(draftMedia: () => ReadonlySet<string>, secret: Buffer = randomBytes(32)): MediaAccess {
  const keyOf = (path: string): string => createHmac('sha256', secret).update(path).digest('base64url').slice(0, 32);
  const urlFor = (url: string, seesDrafts: boolean): string =>
    seesDrafts && draftMedia().has(url) ? `${url}?${MEDIA_KEY_PARAM}=${keyOf(url)}` : url;
  return {
    urlFor,
    keyedIn(html, seesDrafts) {
      if (!seesDrafts || draftMedia().size === 0 || !html.includes('/media/')) return html;
      return html.replace(
        /(\s(?:src|href)=")(\/media\/[^"?#]+)"/g,
        (_whole, attribute: string, url: string) => `${attribute}${urlFor(url, true)}"`,
      );
    },
    allows(path, key, isEditor) {
      if (!draftMedia().has(path) || isEditor) return true;
      if (key === null) return false;
      const expected = Buffer.from(keyOf(path));
      const given = Buffer.from(key);
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
