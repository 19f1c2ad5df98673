import { isGraphQLRequestError } from '../../runtime/shared/graphql-error.ts';
import { redactUrlsIn } from '../../runtime/shared/redact-url.ts';
import { oneLine } from '../terminal/logger.ts';
import { BuildErrors, createBuildError, isBuildError, type BuildError } from './errors.ts';

/** One line naming what went wrong, for summaries: the error's message and the first useful cause. */
export function describeCause(error: unknown): string {
  if (isGraphQLRequestError(error)) return error.message;
  if (error instanceof Error) {
    const inner = error.cause instanceof Error && !error.message.includes(error.cause.message) ? ` (${error.cause.message})` : '';
    return error.message + inner;
  }
  return String(error);
}

/**
 * The error as a command reports it: a BuildError as it is, a full disk (ENOSPC, EDQUOT; also as the
 * message of an error that crossed from a thread, which keeps only the text) as DiskFull, and anything
 * else as UnexpectedError.
 */
export function commandError(error: unknown): BuildError {
  if (isBuildError(error)) return error;
  return createBuildError(diskFull(error) ? BuildErrors.DiskFull : BuildErrors.UnexpectedError, [describeCause(error)], { cause: error });
}

/**
 * The text the CLI prints for an error: `[Code] message`, the per-page failures, the hint; stack only when
 * verbose. Credentials in the URLs it names are redacted (redactUrlsIn).
 */
export function formatError(error: unknown, options: { verbose?: boolean } = {}): string {
  return redactUrlsIn(errorText(error, options));
}

/**
 * Every value in it (the message, which names pages, slugs and the backend's answers, and each failure's
 * page, route, operation, cause and fix) is one line (oneLine): content cannot start a line of its own
 * in the error either. The stack, for --verbose, keeps its lines, with its message made one line too.
 */
function errorText(error: unknown, { verbose = false }: { verbose?: boolean }): string {
  if (!isBuildError(error)) {
    const text = oneLine(describeCause(error));
    return verbose && error instanceof Error && error.stack
      ? `${text}\n${error.stack.replace(error.message, oneLine(error.message))}`
      : `${text}\nRun again with --verbose for the stack trace.`;
  }
  const lines = [`[${error.code}] ${oneLine(error.message)}`];
  for (const f of error.details.failures ?? []) {
    lines.push(
      `  - ${oneLine(f.page)} (route ${oneLine(f.route)}, operation ${oneLine(f.operation)}): ${oneLine(f.cause)}`,
      `    fix: ${oneLine(f.fix)}`,
    );
  }
  lines.push(`Hint: ${error.hint}`);
  if (verbose && error.cause) lines.push(`Caused by: ${oneLine(describeCause(error.cause))}`);
  return lines.join('\n');
}

/** What to do about a failed request, by the kind of failure (GraphQLRequestError's kind and status). */
export function fixFor(cause: unknown): string {
  const kind = (cause as { kind?: string })?.kind;
  const status = (cause as { status?: number | null })?.status;
  if (status === 401 || status === 403) return 'Check the token in GRAPHQL_TOKEN: the backend refused it.';
  if (kind === 'redirect')
    return 'The endpoint redirects, and a request carrying GRAPHQL_TOKEN never follows a redirect: use the final URL (the Location above) as --endpoint.';
  if (kind === 'insecure') return 'GRAPHQL_TOKEN is never sent over plain http to a host that is not loopback: use an https endpoint.';
  if (kind === 'graphql') return 'Fix the query in site/queries or the content it asks for; the backend reported the errors above.';
  if (kind === 'network' || kind === 'timeout')
    return 'Check that the backend is running and reachable (the request was retried with backoff), then build again; --timeout and --retries give it more time.';
  if (kind === 'invalid-response')
    return 'The backend, or a proxy in front of it, answered with something other than GraphQL JSON even after retries: check --endpoint and the proxy, then build again.';
  if (kind === 'http' && (status === 408 || status === 429 || (status ?? 0) >= 500))
    return 'The backend kept failing after every retry: check its logs and load, then build again.';
  return 'Check the backend logs for this request, then build again.';
}

// --- internal ---

/** Whether the error, or one that caused it, is the file system's "no space left" or "quota exceeded". */
function diskFull(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth++) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || /^(ENOSPC|EDQUOT)\b/.test(e.message)) return true;
  }
  return false;
}
