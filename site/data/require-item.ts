/** An error the runtime shows as a 404 error screen (it reads `status` from thrown errors). */
export class ItemNotFoundError extends Error {
  readonly status = 404;

  constructor(what: string) {
    super(`${what} was not found.`);
    this.name = 'ItemNotFoundError';
  }
}

/**
 * The item a detail page is about. The build never writes a page whose item is missing (its route's
 * `exists` says so), but a live preview or a stale payload can still hand a page `null`: that is a 404,
 * not a crash with a TypeError.
 */
export function requireItem<T>(item: T | null | undefined, what: string): T {
  if (item === null || item === undefined) throw new ItemNotFoundError(what);
  return item;
}
