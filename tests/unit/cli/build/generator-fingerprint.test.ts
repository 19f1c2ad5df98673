import { describe, expect, it } from 'vitest';
import { generatorFingerprint } from '../../../../cli/build/generator-fingerprint.ts';
import { resolveConfig } from '../../../../cli/config/config.ts';

describe('the generator fingerprint', () => {
  // Pages an update in place keeps carry their images' srcset: settings that change it change the fingerprint.
  it('changes with the image settings, and with an image service key it never shows', async () => {
    const base = await generatorFingerprint(resolveConfig({}, {}));
    expect(await generatorFingerprint(resolveConfig({}, {}))).toBe(base);
    expect(await generatorFingerprint(resolveConfig({ imageFormats: 'avif,webp' }, {}))).not.toBe(base);
    const service = { IMGPROXY_URL: 'https://img.example', IMGPROXY_KEY: '736563726574', IMGPROXY_SALT: '68656c6c6f' };
    const withService = await generatorFingerprint(resolveConfig({}, service));
    expect(withService).not.toBe(base);
    expect(await generatorFingerprint(resolveConfig({}, { ...service, IMGPROXY_KEY: '00' }))).not.toBe(withService);
  });
});
