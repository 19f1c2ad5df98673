import { describe, expect, it } from 'vitest';
import { clientConfigOf, resolveConfig } from '../../../cli/config/config.ts';

const API = 'https://cms.institute.example/graphql';

describe("the browser's build-time config", () => {
  it('has no API and no error reporting with the embedded backend and nothing set', () => {
    expect(clientConfigOf(resolveConfig({}, {}))).toEqual({ buildCheckInterval: 3_600_000, graphqlEndpoint: null, sentryDsn: null });
  });

  it('calls the build endpoint from the browser too, unless a public endpoint is given (flag over environment)', () => {
    expect(clientConfigOf(resolveConfig({ endpoint: API }, {})).graphqlEndpoint).toBe(API);
    expect(clientConfigOf(resolveConfig({ endpoint: 'http://10.0.0.5/graphql' }, { PUBLIC_GRAPHQL_ENDPOINT: API })).graphqlEndpoint).toBe(
      API,
    );
    expect(
      clientConfigOf(resolveConfig({ publicEndpoint: 'https://flag.example/graphql' }, { PUBLIC_GRAPHQL_ENDPOINT: API })).graphqlEndpoint,
    ).toBe('https://flag.example/graphql');
  });

  it('never carries the build token', () => {
    const config = resolveConfig({ endpoint: API }, { GRAPHQL_TOKEN: 'build-secret' });
    expect(JSON.stringify(clientConfigOf(config))).not.toContain('build-secret');
  });

  it('takes the Sentry DSN from SENTRY_DSN and rejects one that is not a DSN with a usage error', () => {
    expect(clientConfigOf(resolveConfig({}, { SENTRY_DSN: 'https://abc123@o1.ingest.sentry.io/42' })).sentryDsn).toBe(
      'https://abc123@o1.ingest.sentry.io/42',
    );
    expect(() => resolveConfig({}, { SENTRY_DSN: 'https://o1.ingest.sentry.io/42' })).toThrow(
      "Expected SENTRY_DSN to be a Sentry DSN such as https://publickey@o0.ingest.sentry.io/1, got 'https://o1.ingest.sentry.io/42'.",
    );
    expect(() => resolveConfig({ publicEndpoint: 'cms:4000' }, {})).toThrow('Expected --public-endpoint to be an absolute http(s) URL');
  });
});
