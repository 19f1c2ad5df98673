/**
 * Error reporting with Sentry, on only when the build configured a DSN. The SDK is a separate chunk
 * loaded once the page has hydrated and the browser is idle, so it never delays the first render; errors
 * raised before it arrives are kept and sent once it has started. Everything is scrubbed of tokens and
 * Authorization headers before it leaves the browser (runtime/sentry.ts).
 */

export interface ErrorReportingOptions {
  dsn: string;
  /** The build id: events and sessions are grouped by it. */
  release: string;
  /** The visitor's token, scrubbed from everything that is sent. */
  getToken: () => string | null;
}

/** One error on its way to Sentry; `handled: false` marks the session as crashed. */
export interface ErrorReport {
  error: unknown;
  /** Where it was caught, e.g. `onerror` or `page`. */
  mechanism: string;
  handled: boolean;
}

/** The loaded reporter: sends one error. */
export type ReportSink = (report: ErrorReport) => void;

/** The Sentry chunk (runtime/sentry.ts), which the route table names so that it stays out of first-load JS. */
export interface ErrorReportingModule {
  initSentry(options: ErrorReportingOptions): ReportSink;
}

/** The errors collected before Sentry started; `handOver` ends the collecting. */
export interface CollectedErrors {
  /** Sends what was collected to `sink` and every later report too; with null, drops them and reports nothing. */
  handOver(sink: ReportSink | null): void;
}

let queue: ErrorReport[] | null = null;
let sink: ReportSink | null = null;

/**
 * Starts collecting errors (window errors and unhandled rejections, plus reportError calls) until Sentry
 * has loaded, after the first render (runtime/interactive.ts), and takes over.
 */
export function collectErrors(): CollectedErrors {
  queue = [];
  const onError = (event: ErrorEvent): void =>
    void queue?.push({ error: event.error ?? event.message, mechanism: 'onerror', handled: false });
  const onRejection = (event: PromiseRejectionEvent): void =>
    void queue?.push({ error: event.reason, mechanism: 'onunhandledrejection', handled: false });
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  return {
    handOver(next) {
      window.removeEventListener('error', onError);
      window.removeEventListener('unhandledrejection', onRejection);
      const collected = queue ?? [];
      queue = null;
      sink = next;
      if (next) collected.forEach(next);
    },
  };
}

/** Reports an error that broke a page (error screen, or swallowed for a bot); a no-op without a DSN. */
export function reportError(error: unknown, mechanism = 'page'): void {
  const report = { error, mechanism, handled: false };
  if (sink) sink(report);
  else queue?.push(report);
}
