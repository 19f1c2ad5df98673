import { describe, expect, it } from 'vitest';
import { imgproxyFields, imgproxySignature, imgproxyUrl } from '../../../../../cli/content/images/imgproxy.ts';

// imgproxy's documented example (docs.imgproxy.net, "Signing a URL"): key "secret", salt "hello", hex-encoded.
const KEY = Buffer.from('736563726574', 'hex');
const SALT = Buffer.from('68656C6C6F', 'hex');

describe('imgproxy URLs', () => {
  it("signs a path as imgproxy's documentation does", () => {
    expect(imgproxySignature('/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png', KEY, SALT)).toBe(
      'oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8',
    );
  });

  it('encodes the source as URL-safe Base64, as the documented example does, and signs the whole path', () => {
    const url = imgproxyUrl(
      { url: 'https://img.example.org', key: KEY, salt: SALT },
      'http://example.com/images/curiosity.jpg',
      640,
      'webp',
    );
    const path = '/rs:fit:640:0:0/aHR0cDovL2V4YW1wbGUuY29tL2ltYWdlcy9jdXJpb3NpdHkuanBn.webp';
    expect(url).toBe(`https://img.example.org/${imgproxySignature(path, KEY, SALT)}${path}`);
    // Another key signs differently: a URL made without the key is refused by the service.
    expect(imgproxySignature(path, Buffer.from('00', 'hex'), SALT)).not.toBe(imgproxySignature(path, KEY, SALT));
  });

  it('gives the same srcset widths as build-time encoding, and never the key or salt', () => {
    const fields = imgproxyFields(
      { kind: 'imgproxy', url: 'https://img.example.org', key: KEY, salt: SALT },
      'http://cms.example/media/a.jpg',
      { format: 'jpeg', width: 1000, height: 500, hasAlpha: false },
      { widths: [320, 640, 1600], formats: ['webp'], fallbackWidth: 1200 },
    );
    expect(fields.width).toBe(1000);
    expect(fields.url).toMatch(/^https:\/\/img\.example\.org\/[\w-]{43}\/rs:fit:1000:0:0\/[\w-]+\.jpg$/);
    expect(fields.sources).toHaveLength(1);
    expect(fields.sources![0]!.widths).toEqual([320, 640, 1000]);
    const text = JSON.stringify(fields);
    expect(text).not.toContain('736563726574');
    expect(text).not.toContain('secret');
  });
});
