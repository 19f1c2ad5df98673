import { describe, expect, it } from 'vitest';
import { htmlFileFor, LATEST_FILE, metaFileFor, normalizePath, payloadFileFor, payloadUrlFor } from '../../../runtime/shared/paths.ts';

describe('page paths', () => {
  it.each([
    ['/', '/'],
    ['', '/'],
    ['/news/', '/news'],
    ['news', '/news'],
    ['//about//people/', '/about/people'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizePath(input)).toBe(expected);
  });

  it.each([
    ['/', 'index.html', '_payload.json'],
    ['/news', 'news/index.html', 'news/_payload.json'],
    ['/news/a-b/', 'news/a-b/index.html', 'news/a-b/_payload.json'],
  ])('writes %s to %s with its payload at %s', (path, html, payload) => {
    expect(htmlFileFor(path)).toBe(html);
    expect(payloadFileFor(path)).toBe(payload);
  });

  it('fetches a payload with the build id as its query', () => {
    expect(payloadUrlFor('/news/x', 'abc123')).toBe('/news/x/_payload.json?abc123');
    expect(payloadUrlFor('/', 'abc123')).toBe('/_payload.json?abc123');
  });

  it('keeps build files under the assets folder', () => {
    expect(metaFileFor('abc')).toBe('_assets/builds/meta/abc.json');
    expect(LATEST_FILE).toBe('_assets/builds/latest.json');
  });
});
