/**
 * The error `promise` rejects with, narrowed by `guard` (isBuildError, isGraphQLRequestError…). Throws
 * when the promise resolves or rejects with anything else, so the test fails naming what came instead.
 */
export async function rejectionOf<E>(promise: Promise<unknown>, guard: (value: unknown) => value is E): Promise<E> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!guard(error)) throw new Error(`expected a rejection that ${guard.name} accepts, got ${String(error)}`);
  return error;
}
