import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../cli/config/config.ts';
import { isBuildError } from '../../../cli/errors/errors.ts';

describe('resolveConfig', () => {
  it('fills every default and freezes the result', () => {
    const config = resolveConfig({}, {}, '/work');
    expect(config).toMatchObject({ endpoint: null, token: null, outDir: '/work/dist', baseUrl: null, concurrency: 8, retries: 3, buildCheckInterval: 3_600_000 });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('takes the endpoint, token and site URL from the environment, and flags win over it', () => {
    const env = { GRAPHQL_ENDPOINT: 'http://127.0.0.1:4000/graphql', GRAPHQL_TOKEN: 't0k', SITE_URL: 'https://env.example/' };
    expect(resolveConfig({}, env)).toMatchObject({ endpoint: 'http://127.0.0.1:4000/graphql', token: 't0k', baseUrl: 'https://env.example' });
    expect(resolveConfig({ endpoint: 'http://127.0.0.1:5000/graphql', baseUrl: 'https://flag.example' }, env)).toMatchObject({ endpoint: 'http://127.0.0.1:5000/graphql', baseUrl: 'https://flag.example' });
  });

  it.each([
    [{ concurrency: '0' }, "Expected --concurrency to be an integer from 1 to 256, got '0'."],
    [{ concurrency: 'many' }, "Expected --concurrency to be an integer from 1 to 256, got 'many'."],
    [{ endpoint: 'localhost:4000' }, "Expected --endpoint to be an absolute http(s) URL such as http://127.0.0.1:4000/graphql, got 'localhost:4000'."],
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
});
