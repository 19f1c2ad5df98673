import { isGraphQLRequestError } from '../../runtime/shared/graphql.ts';
import { redactUrlsIn } from '../../runtime/shared/redact-url.ts';
import { isBuildError } from './errors.ts';

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
 * The text the CLI prints for an error: `[Code] message`, the per-page failures, the hint; stack only when
 * verbose. Credentials in the URLs it names are redacted (redactUrlsIn).
 */
export function formatError(error: unknown, options: { verbose?: boolean } = {}): string {
  return redactUrlsIn(errorText(error, options));
}

function errorText(error: unknown, { verbose = false }: { verbose?: boolean }): string {
  if (!isBuildError(error)) {
    const text = describeCause(error);
    return verbose && error instanceof Error && error.stack ? `${text}\n${error.stack}` : `${text}\nRun again with --verbose for the stack trace.`;
  }
  const lines = [`[${error.code}] ${error.message}`];
  for (const f of error.details.failures ?? []) {
    lines.push(`  - ${f.page} (route ${f.route}, operation ${f.operation}): ${f.cause}`, `    fix: ${f.fix}`);
  }
  lines.push(`Hint: ${error.hint}`);
  if (verbose && error.cause) lines.push(`Caused by: ${describeCause(error.cause)}`);
  return lines.join('\n');
}
