/**
 * The schema's custom scalars. Records already hold ISO strings, so serialising is a type check; input
 * parsing validates the format for any future argument of these types.
 */
import { GraphQLScalarType, Kind } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';

/** `DateTime`: an ISO-8601 date-time string such as `2026-03-14T09:30:00Z`. */
export const DateTimeScalar = createIsoScalar(
  'DateTime',
  'ISO-8601 date-time string, e.g. 2026-03-14T09:30:00Z.',
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/,
);

/** `Date`: an ISO-8601 calendar date such as `2026-03-14`. */
export const DateScalar = createIsoScalar('Date', 'ISO-8601 calendar date, e.g. 2026-03-14.', /^\d{4}-\d{2}-\d{2}$/);

// --- internal ---

function createIsoScalar(name: string, description: string, pattern: RegExp): GraphQLScalarType<string, string> {
  const check = (value: unknown): string => {
    if (typeof value === 'string' && pattern.test(value)) return value;
    throw createGraphQLError(`${name} cannot represent ${JSON.stringify(value)}: expected ${description}`);
  };
  return new GraphQLScalarType<string, string>({
    name,
    description,
    serialize: (value) => {
      if (value instanceof Date) return name === 'Date' ? value.toISOString().slice(0, 10) : value.toISOString();
      // Stored values are produced by our own builders; a type check is enough on the hot path.
      if (typeof value === 'string') return value;
      throw createGraphQLError(`${name} cannot represent ${JSON.stringify(value)}.`);
    },
    parseValue: check,
    parseLiteral: (ast) => check(ast.kind === Kind.STRING ? ast.value : undefined),
  });
}
