import { describe, expect, it } from 'vitest';
import { FILTERED, scrubSecrets } from '../../../runtime/scrub.ts';

const TOKEN = 'c0ffee/token+value';

describe('scrubbing credentials from error reports', () => {
  it('filters Authorization and Cookie headers whatever their case', () => {
    const event = { request: { headers: { Authorization: `Bearer ${TOKEN}`, cookie: 'a=b', 'User-Agent': 'Chromium' } } };
    expect(scrubSecrets(event)).toEqual({ request: { headers: { Authorization: FILTERED, cookie: FILTERED, 'User-Agent': 'Chromium' } } });
  });

  it('removes Bearer tokens and the token cookie from any text, even without knowing the token', () => {
    const crumb = { message: 'fetch failed with Authorization: Bearer abc.def-123, cookie apollo:default.token=xyz%2F1; theme=dark' };
    expect(scrubSecrets(crumb).message).toBe(
      `fetch failed with Authorization: Bearer ${FILTERED}, cookie apollo:default.token=${FILTERED}; theme=dark`,
    );
  });

  it("removes the visitor's own token wherever it appears, raw or URI-encoded, in nested values and errors", () => {
    const event = {
      exception: { values: [{ value: `Boom for ${TOKEN}`, stacktrace: { frames: [{ vars: { t: encodeURIComponent(TOKEN) } }] } }] },
      breadcrumbs: [{ category: 'console', data: { arguments: [new Error(`bad ${TOKEN}`), `url?x=${encodeURIComponent(TOKEN)}`] } }],
    };
    const scrubbed = JSON.stringify(scrubSecrets(event, [TOKEN]));
    expect(scrubbed).not.toContain(TOKEN);
    expect(scrubbed).not.toContain(encodeURIComponent(TOKEN));
    expect(scrubbed).toContain(`Boom for ${FILTERED}`);
    expect(scrubbed).toContain(`bad ${FILTERED}`);
  });

  it('leaves the original untouched and keeps everything else as it was', () => {
    const event = { release: 'build-1', tags: { page: '/news' }, extra: { count: 3, when: null } };
    const copy = structuredClone(event);
    expect(scrubSecrets(event, [TOKEN])).toEqual(copy);
    expect(event).toEqual(copy);
  });
});
