import { readFile } from 'node:fs/promises';
import { buildSchema, getNamedType, isCompositeType, parse, TypeInfo, visit, visitWithTypeInfo, type GraphQLSchema } from 'graphql';

/**
 * Which content types a GraphQL document reads: the object type of every field it selects, at any depth
 * (an article's author is a Person, so a page that shows the author reads Person); scalars and enums
 * are not types the feed names. The change feed names
 * the types of the items that changed; a route none of whose documents read a changed type cannot have
 * changed, so a build with a feed need not ask the backend for its pages again (build/changed-routes.ts).
 */
export function typesRead(schema: GraphQLSchema, document: string): string[] {
  const info = new TypeInfo(schema);
  const types = new Set<string>();
  visit(
    parse(document),
    visitWithTypeInfo(info, {
      Field() {
        const type = info.getType();
        const named = type && getNamedType(type);
        if (named && isCompositeType(named)) types.add(named.name);
      },
    }),
  );
  return [...types].sort();
}

/** The backend's schema as the site declares it (site/schema.graphql). */
export async function loadSchema(file: string): Promise<GraphQLSchema> {
  return buildSchema(await readFile(file, 'utf8'));
}
