import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSeenSignatures, signWebhook, verifyWebhook } from '../../../../../cli/serve/live/webhook-signature.ts';

const SECRET = 'a-shared-secret-of-at-least-32-characters';
const NOW = 1_795_000_000;
const body = Buffer.from('{"type":"NewsItem","id":"news-3"}');

const verify = (timestamp: number | string | undefined, signature: string | undefined, seen = createSeenSignatures(), nowS = NOW) =>
  verifyWebhook({ secret: SECRET, timestamp: timestamp === undefined ? undefined : String(timestamp), signature, body, nowS, seen });

describe("site live's webhook signature", () => {
  it('is HMAC-SHA256 of `{timestamp}.{body}` with the shared secret, as sha256=<hex>', () => {
    const expected = createHmac('sha256', SECRET).update(`${NOW}.${body.toString()}`).digest('hex');
    expect(signWebhook(SECRET, NOW, body)).toBe(`sha256=${expected}`);
  });

  it('takes a signed call within five minutes of its timestamp, either side', () => {
    expect(verify(NOW, signWebhook(SECRET, NOW, body))).toEqual({ ok: true });
    expect(verify(NOW - 300, signWebhook(SECRET, NOW - 300, body))).toEqual({ ok: true });
    expect(verify(NOW + 300, signWebhook(SECRET, NOW + 300, body))).toEqual({ ok: true });
  });

  it('refuses a call signed with another secret, for another body or another timestamp', () => {
    expect(verify(NOW, signWebhook(`${SECRET}x`, NOW, body))).toMatchObject({
      ok: false,
      status: 401,
      reason: expect.stringMatching(/signature does not match/),
    });
    expect(verify(NOW, signWebhook(SECRET, NOW, Buffer.from('{}')))).toMatchObject({ ok: false, status: 401 });
    expect(verify(NOW, signWebhook(SECRET, NOW - 1, body))).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a call older or newer than the tolerance, even signed, naming the gap', () => {
    expect(verify(NOW - 301, signWebhook(SECRET, NOW - 301, body))).toMatchObject({
      ok: false,
      status: 401,
      reason: expect.stringContaining('301 s'),
    });
    expect(verify(NOW + 301, signWebhook(SECRET, NOW + 301, body))).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses a call without its headers, or with malformed ones', () => {
    const good = signWebhook(SECRET, NOW, body);
    expect(verify(undefined, good)).toMatchObject({ ok: false, status: 401, reason: expect.stringContaining('x-site-timestamp') });
    expect(verify(NOW, undefined)).toMatchObject({ ok: false, status: 401, reason: expect.stringContaining('x-site-signature') });
    expect(verify('1795000000.5', good)).toMatchObject({ ok: false, status: 401 });
    expect(verify(NOW, good.toUpperCase())).toMatchObject({ ok: false, status: 401 });
    expect(verify(NOW, good.slice(0, -1))).toMatchObject({ ok: false, status: 401 });
  });

  it('takes a call once: the same signed call again is a replay, refused while it is within the tolerance', () => {
    const seen = createSeenSignatures();
    const signature = signWebhook(SECRET, NOW, body);
    expect(verify(NOW, signature, seen)).toEqual({ ok: true });
    expect(verify(NOW, signature, seen, NOW + 10)).toMatchObject({ ok: false, status: 409 });
    // The same body sent again a second later is another call: taken.
    expect(verify(NOW + 1, signWebhook(SECRET, NOW + 1, body), seen, NOW + 10)).toEqual({ ok: true });
    // Past the tolerance it is refused as old; the next call taken forgets the calls past the tolerance.
    expect(verify(NOW, signature, seen, NOW + 301)).toMatchObject({ ok: false, status: 401 });
    expect(seen.size).toBe(2);
    expect(verify(NOW + 302, signWebhook(SECRET, NOW + 302, body), seen, NOW + 302)).toEqual({ ok: true });
    expect(seen.size).toBe(1);
  });

  it('remembers only signed calls: refused ones leave nothing behind', () => {
    const seen = createSeenSignatures();
    for (let i = 0; i < 100; i++) verify(NOW, `sha256=${i.toString(16).padStart(64, '0')}`, seen);
    expect(seen.size).toBe(0);
  });
});
