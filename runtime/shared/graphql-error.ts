// A failed GraphQL operation, apart from the client (graphql.ts) so that the code that only reports one
// (the CLI's error formatting, loaded by every command) does not load graphql-request and graphql.

export type GraphQLErrorKind = 'network' | 'timeout' | 'http' | 'graphql' | 'invalid-response' | 'redirect' | 'insecure';

/** A failed GraphQL operation. `operation` is the operation name from the document. */
export class GraphQLRequestError extends Error {
  readonly kind: GraphQLErrorKind;
  readonly operation: string;
  readonly status: number | null;
  readonly graphqlErrors: readonly { message: string }[];
  /** The endpoint, credentials redacted. */
  readonly endpoint: string;
  /** Short cause without the operation and endpoint, e.g. `ECONNREFUSED` or `HTTP 503`. */
  readonly reason: string;
  readonly isGraphQLRequestError = true;

  constructor(init: {
    kind: GraphQLErrorKind;
    operation: string;
    status: number | null;
    endpoint: string;
    message: string;
    reason: string;
    graphqlErrors?: readonly { message: string }[];
    cause?: unknown;
  }) {
    super(init.message, { cause: init.cause });
    this.name = 'GraphQLRequestError';
    this.kind = init.kind;
    this.operation = init.operation;
    this.status = init.status;
    this.endpoint = init.endpoint;
    this.reason = init.reason;
    this.graphqlErrors = init.graphqlErrors ?? [];
  }
}

/** Guard that works across bundles, where `instanceof` would not. */
export function isGraphQLRequestError(value: unknown): value is GraphQLRequestError {
  return typeof value === 'object' && value !== null && (value as { isGraphQLRequestError?: unknown }).isGraphQLRequestError === true;
}
