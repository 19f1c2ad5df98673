/**
 * What an edit may set (editing.ts): the fields of an item's GraphQL type in site/schema.graphql, each
 * checked against the type the schema gives it, so an edit can never store what the API could not answer
 * or a build could not read. Text is stored as given (the build cleans rich text); dates must be ISO
 * dates, numbers whole, a status one of the enum's values; a reference to another item is given by its
 * id (a category by its slug), an image or a page section as a JSON object with every field of its type.
 */
import {
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLScalarType,
  type GraphQLSchema,
} from 'graphql';
import { DateScalar, DateTimeScalar } from './scalars.ts';

/** An edit the backend refuses, with a message that names the type, item or field and what to do. */
export class EditError extends Error {}

/** How a field names another item: by id, or a category by its slug. */
export interface References {
  /** The item of `type` that `key` (an id; a category's slug) names, or an EditError naming both. */
  find(type: string, key: string, field: string): object;
}

/**
 * The values to store for `fields` on an item of `type`, checked against the schema.
 * @throws EditError naming the field: not one of the type's, one the API works out itself, or a value of another kind
 */
export function checkFields(
  schema: GraphQLSchema,
  type: string,
  fields: Record<string, unknown>,
  references: References,
): Record<string, unknown> {
  const object = objectType(schema, type);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    const field = object.getFields()[name];
    if (!field) throw new EditError(`${capital(an(type))} has no field '${name}': its fields are ${settable(object).join(', ')}.`);
    if (name === 'id') throw new EditError(`The id of ${an(type)} cannot change.`);
    if (field.args.length > 0) throw new EditError(`The field '${name}' of ${an(type)} is worked out from the lists; it cannot be set.`);
    out[name] = valueOf(schema, field.type, value, `'${name}' of ${an(type)}`, references);
  }
  return out;
}

// --- internal ---

function objectType(schema: GraphQLSchema, type: string): GraphQLObjectType {
  const found = schema.getType(type);
  if (!isObjectType(found)) throw new Error(`site/schema.graphql has no object type ${type}.`);
  return found;
}

/** The fields an edit may set, for error messages. */
function settable(object: GraphQLObjectType): string[] {
  return Object.values(object.getFields())
    .filter((f) => f.name !== 'id' && f.args.length === 0)
    .map((f) => f.name);
}

function valueOf(schema: GraphQLSchema, type: GraphQLOutputType, value: unknown, where: string, references: References): unknown {
  if (value === null) {
    if (isNonNullType(type)) throw new EditError(`The field ${where} cannot be null.`);
    return null;
  }
  const inner = getNullableType(type);
  if (isListType(inner)) {
    if (!Array.isArray(value)) throw new EditError(`The field ${where} holds a list; ${JSON.stringify(value)} is not one.`);
    return value.map((item, i) => valueOf(schema, inner.ofType as GraphQLOutputType, item, `${where} (item ${i + 1})`, references));
  }
  if (isEnumType(inner)) {
    const allowed = inner.getValues().map((v) => v.value as string);
    if (typeof value !== 'string' || !allowed.includes(value))
      throw new EditError(`The field ${where} is one of ${allowed.join(', ')}, not ${JSON.stringify(value)}.`);
    return value;
  }
  if (isScalarType(inner)) return scalar(inner.name, value, where);
  if (isObjectType(inner)) {
    // An item of its own (an author, a category, a file): named by its id, or its slug for a category.
    if (isItemType(inner)) {
      if (typeof value !== 'string')
        throw new EditError(
          `The field ${where} names ${an(inner.name)} by its ${inner.name === 'Category' ? 'slug' : 'id'}; ${JSON.stringify(value)} is not one.`,
        );
      return references.find(inner.name, value, where);
    }
    // A value made of plain fields (an image, a page section, a link): every field of its type.
    return plainObject(schema, inner, value, where, references);
  }
  throw new EditError(`The field ${where} cannot be set here.`);
}

function plainObject(
  schema: GraphQLSchema,
  object: GraphQLObjectType,
  value: unknown,
  where: string,
  references: References,
): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new EditError(
      `The field ${where} holds ${an(object.name)} (a JSON object of ${Object.keys(object.getFields()).join(', ')}); ${JSON.stringify(value)} is not one.`,
    );
  const given = value as Record<string, unknown>;
  const fields: Record<string, GraphQLField<unknown, unknown>> = object.getFields();
  const unknown = Object.keys(given).filter((key) => !fields[key]);
  if (unknown.length > 0)
    throw new EditError(
      `${capital(an(object.name))} in ${where} has no field '${unknown[0]}': its fields are ${Object.keys(fields).join(', ')}.`,
    );
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (!(name in given) && isNonNullType(field.type))
      throw new EditError(`${capital(an(object.name))} in ${where} needs its field '${name}'.`);
    out[name] = valueOf(schema, field.type, given[name] ?? null, `'${name}' of the ${object.name} in ${where}`, references);
  }
  return out;
}

/** An item of its own has an `id: ID!` (a page section's id is a plain String: it is part of its page). */
function isItemType(object: GraphQLObjectType): boolean {
  const id = object.getFields()['id'];
  return id !== undefined && isNonNullType(id.type) && isScalarType(id.type.ofType) && id.type.ofType.name === 'ID';
}

/** The schema's own scalars, which say what they accept. */
const CUSTOM_SCALARS: Record<string, GraphQLScalarType> = { Date: DateScalar, DateTime: DateTimeScalar };

function scalar(name: string, value: unknown, where: string): unknown {
  const wrong = (kind: string): EditError => new EditError(`The field ${where} holds ${kind}; ${JSON.stringify(value)} is not one.`);
  switch (name) {
    case 'String':
    case 'ID':
      if (typeof value !== 'string') throw wrong('text');
      return value;
    case 'Int':
      if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > 2 ** 31 - 1) throw wrong('a whole number');
      return value;
    case 'Float':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrong('a number');
      return value;
    case 'Boolean':
      if (typeof value !== 'boolean') throw wrong('true or false');
      return value;
    default: {
      const custom = CUSTOM_SCALARS[name];
      if (!custom) throw new EditError(`The field ${where} cannot be set here.`);
      try {
        custom.parseValue(value);
      } catch (error) {
        throw new EditError(`The field ${where}: ${(error as Error).message}`);
      }
      // The lists are sorted by these dates: one that matches the pattern but is no day (2026-02-31) would scramble them.
      if (!isDay(value as string)) throw new EditError(`The field ${where} holds ${an(name)}; ${JSON.stringify(value)} is no such day.`);
      return value;
    }
  }
}

/** Whether the calendar day a Date or DateTime names exists (2026-02-31 does not). */
function isDay(value: string): boolean {
  const day = value.slice(0, 10);
  const time = Date.parse(`${day}T00:00:00Z`);
  return !Number.isNaN(time) && !Number.isNaN(Date.parse(value)) && new Date(time).toISOString().slice(0, 10) === day;
}

/** 'an Event', 'a NewsItem'. */
function an(name: string): string {
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
