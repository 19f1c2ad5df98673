import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../cli/config/config.ts';
import { isBuildError } from '../../../../cli/errors/errors.ts';

describe('resolveConfig', () => {
  it('fills every default and freezes the result', () => {
    const config = resolveConfig({}, {}, '/work');
    expect(config).toMatchObject({
      endpoint: null,
      token: null,
      outDir: '/work/dist',
      baseUrl: null,
      concurrency: 8,
      retries: 3,
      buildCheckInterval: 3_600_000,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('takes the endpoint, token and site URL from the environment, and flags win over it', () => {
    const env = { GRAPHQL_ENDPOINT: 'http://127.0.0.1:4000/graphql', GRAPHQL_TOKEN: 't0k', SITE_URL: 'https://env.example/' };
    expect(resolveConfig({}, env)).toMatchObject({
      endpoint: 'http://127.0.0.1:4000/graphql',
      token: 't0k',
      baseUrl: 'https://env.example',
    });
    expect(resolveConfig({ endpoint: 'http://127.0.0.1:5000/graphql', baseUrl: 'https://flag.example' }, env)).toMatchObject({
      endpoint: 'http://127.0.0.1:5000/graphql',
      baseUrl: 'https://flag.example',
    });
  });

  it.each([
    [{ concurrency: '0' }, "Expected --concurrency to be an integer from 1 to 256, got '0'."],
    [{ concurrency: 'many' }, "Expected --concurrency to be an integer from 1 to 256, got 'many'."],
    [
      { endpoint: 'localhost:4000' },
      "Expected --endpoint to be an absolute http(s) URL such as http://127.0.0.1:4000/graphql, got 'localhost:4000'.",
    ],
    [
      { imageFormats: 'jxl' },
      "Expected --image-formats to be a comma-separated list of avif and webp, most preferred first (webp, or avif,webp), got 'jxl'.",
    ],
    [
      { imageService: 'https://img.example' },
      "Expected IMGPROXY_KEY to be imgproxy's key in hex, as the service has it, while --image-service is set, got '(not set)'.",
    ],
  ])('rejects %j with a usage error that says what to pass', (user, message) => {
    let caught: unknown;
    try {
      resolveConfig(user, {});
    } catch (error) {
      caught = error;
    }
    expect(isBuildError(caught) && caught.exitCode).toBe(2);
    expect((caught as Error).message).toBe(message);
  });

  it('takes the image settings from flags, and an image service with its key and salt from the environment, never printing them', () => {
    expect(resolveConfig({}, {}).images).toMatchObject({ formats: ['webp'], maxPixels: 100_000_000, service: null });
    expect(resolveConfig({ imageFormats: 'avif, webp', imageMaxPixels: '5000000' }, {}).images).toMatchObject({
      formats: ['avif', 'webp'],
      maxPixels: 5_000_000,
    });
    const service = resolveConfig({}, { IMGPROXY_URL: 'https://img.example/', IMGPROXY_KEY: '736563726574', IMGPROXY_SALT: '68656c6c6f' })
      .images.service!;
    expect(service.url).toBe('https://img.example');
    expect(service.key.toString()).toBe('secret');
    let caught: unknown;
    try {
      resolveConfig({}, { IMGPROXY_URL: 'https://img.example', IMGPROXY_KEY: 'not hex', IMGPROXY_SALT: '00' });
    } catch (error) {
      caught = error;
    }
    expect((caught as Error).message).toContain('IMGPROXY_KEY');
    expect((caught as Error).message).not.toContain('not hex');
  });
});
