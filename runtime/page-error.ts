import type { PageError } from './shared/contract.ts';

/** Non-fatal 404 for a path no route matches (docs/decisions/navigation-by-payloads.md, constants). */
export function createNotFoundError(path: string): PageError {
  return { status: 404, message: `Page not found: ${path}`, fatal: false };
}

/** Fatal 404 for a route whose params fail validation (docs/decisions/navigation-by-payloads.md, constants). */
export function createValidationError(path: string): PageError {
  return { status: 404, message: `Page Not Found: ${path}`, fatal: true };
}

/** Fatal error from anything thrown while loading or rendering a page. */
export function createPageError(error: unknown): PageError {
  const status = typeof (error as { status?: unknown })?.status === 'number' ? (error as { status: number }).status : 500;
  const message = error instanceof Error ? error.message : String(error);
  return { status, message: message || 'Something went wrong.', fatal: true };
}
