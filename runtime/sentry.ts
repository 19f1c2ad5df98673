import { browserSessionIntegration, captureException, init, type Breadcrumb, type ErrorEvent } from '@sentry/browser';
import type { ErrorReportingOptions, ReportSink } from './error-reporting.ts';
import { scrubSecrets } from './scrub.ts';

/**
 * The Sentry chunk, loaded after hydration only when the build configured a DSN. Sessions follow the
 * reference (section 9): one per page load and one per client navigation, sent only because a release
 * (the build id) is set. Every event and breadcrumb is scrubbed of tokens before it is sent.
 */
export function initSentry({ dsn, release, getToken }: ErrorReportingOptions): ReportSink {
  const secrets = (): string[] => {
    const token = getToken();
    return token ? [token] : [];
  };
  init({
    dsn,
    release,
    environment: 'production',
    integrations: [browserSessionIntegration({ lifecycle: 'route' })],
    beforeSend: (event: ErrorEvent) => scrubSecrets(event, secrets()),
    beforeBreadcrumb: (breadcrumb: Breadcrumb) => scrubSecrets(breadcrumb, secrets()),
  });
  return ({ error, mechanism, handled }) => void captureException(error, { mechanism: { type: mechanism, handled } });
}
