import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../../cli/config/config.ts';
import { isBuildError } from '../../../../cli/errors/errors.ts';
import type { SiteBuildOptions } from '../../../../site/site.config.ts';

const ROOT = resolveConfig({}, {}, '/work', {}).root;

describe('resolveConfig precedence: defaults < site.config.ts < environment < flags', () => {
  it('uses site.config.ts for every field nothing else sets, with paths relative to the project root', () => {
    const file: SiteBuildOptions = {
      outDir: 'public-site',
      cacheDir: '/var/cache/site',
      concurrency: 4,
      timeoutMs: 5000,
      retries: 1,
      buildCheckInterval: 60_000,
      strict: true,
      payloadBudget: 50_000,
      report: 'reports/build.json',
    };
    const config = resolveConfig({}, {}, '/work', file);
    expect(config).toMatchObject({
      outDir: join(ROOT, 'public-site'),
      cacheDir: '/var/cache/site',
      concurrency: 4,
      timeoutMs: 5000,
      retries: 1,
      buildCheckInterval: 60_000,
      strict: true,
      payloadBudget: 50_000,
      reportFile: join(ROOT, 'reports/build.json'),
    });
  });

  it('lets the environment override site.config.ts, and flags override both', () => {
    const file: SiteBuildOptions = {
      endpoint: 'http://file.example/graphql',
      baseUrl: 'https://file.example',
      sentryDsn: 'https://file@o1.ingest.sentry.io/1',
    };
    const env = {
      GRAPHQL_ENDPOINT: 'http://env.example/graphql',
      SITE_URL: 'https://env.example',
      SENTRY_DSN: 'https://env@o1.ingest.sentry.io/2',
    };
    expect(resolveConfig({}, {}, '/work', file)).toMatchObject({
      endpoint: 'http://file.example/graphql',
      baseUrl: 'https://file.example',
      sentryDsn: 'https://file@o1.ingest.sentry.io/1',
    });
    expect(resolveConfig({}, env, '/work', file)).toMatchObject({
      endpoint: 'http://env.example/graphql',
      baseUrl: 'https://env.example',
      sentryDsn: 'https://env@o1.ingest.sentry.io/2',
    });
    const flags = {
      endpoint: 'http://flag.example/graphql',
      baseUrl: 'https://flag.example',
      sentryDsn: 'https://flag@o1.ingest.sentry.io/3',
    };
    expect(resolveConfig(flags, env, '/work', file)).toMatchObject({
      endpoint: 'http://flag.example/graphql',
      baseUrl: 'https://flag.example',
      sentryDsn: 'https://flag@o1.ingest.sentry.io/3',
    });
  });

  it('lets flags override site.config.ts for options without an environment variable, with flag paths relative to the working directory', () => {
    const file: SiteBuildOptions = { outDir: 'public-site', concurrency: 4, strict: true, report: false };
    const config = resolveConfig({ outDir: 'out', concurrency: '16', strict: false, report: 'r.json' }, {}, '/work', file);
    expect(config).toMatchObject({ outDir: '/work/out', concurrency: 16, strict: false, reportFile: '/work/r.json' });
  });

  it('falls back to the documented defaults, with the report beside the output folder', () => {
    const config = resolveConfig({ outDir: 'site/dist' }, {}, '/work', {});
    expect(config).toMatchObject({
      outDir: '/work/site/dist',
      strict: false,
      payloadBudget: 131_072,
      reportFile: '/work/site/build-report.json',
      concurrency: 8,
    });
    expect(resolveConfig({ report: false }, {}, '/work', {}).reportFile).toBeNull();
  });

  it('names the site.config.ts field in the error when its value is invalid', () => {
    let caught: unknown;
    try {
      resolveConfig({}, {}, '/work', { endpoint: 'cms:4000' });
    } catch (error) {
      caught = error;
    }
    expect(isBuildError(caught) && caught.code).toBe('InvalidOption');
    expect((caught as Error).message).toBe(
      "Expected build.endpoint in site/site.config.ts to be an absolute http(s) URL such as http://127.0.0.1:4000/graphql, got 'cms:4000'.",
    );
    expect(() => resolveConfig({}, {}, '/work', { concurrency: 2.5 })).toThrow('build.concurrency in site/site.config.ts');
  });

  it('carries the shared-markup switch in the resolved config: on by default, off from site.config.ts or the SITE_SHARED_MARKUP=off override', () => {
    expect(resolveConfig({}, {}, '/work', {}).sharedMarkup).toBe(true);
    expect(resolveConfig({}, {}, '/work', { sharedMarkup: false }).sharedMarkup).toBe(false);
    expect(resolveConfig({}, { SITE_SHARED_MARKUP: 'off' }, '/work', {}).sharedMarkup).toBe(false);
    expect(resolveConfig({}, { SITE_SHARED_MARKUP: 'on' }, '/work', { sharedMarkup: false }).sharedMarkup).toBe(true);
  });
});
