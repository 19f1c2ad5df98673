import { readFile } from 'node:fs/promises';
import { buildSchema, getNamedType, isAbstractType, isCompositeType, parse, TypeInfo, visit, visitWithTypeInfo, type GraphQLNamedType, type GraphQLSchema } from 'graphql';

/**
 * Which content types a GraphQL document reads: the object type of every field it selects, at any depth
 * (an article's author is a Person, so a page that shows the author reads Person), every type an
 * interface or union field can return, and each fragment's type; scalars and enums are not types the
 * feed names. The change feed names
 * the types of the items that changed; a route none of whose documents read a changed type cannot have
 * changed, so a build with a feed need not ask the backend for its pages again (build/changed-routes.ts).
 */
export function typesRead(schema: GraphQLSchema, document: string): string[] {
  const info = new TypeInfo(schema);
  const types = new Set<string>();
  // An interface or union reads every type it can be, and a fragment the type it names.
  const add = (named: GraphQLNamedType | null | undefined): void => {
    if (!named || !isCompositeType(named)) return;
    types.add(named.name);
    if (isAbstractType(named)) for (const possible of schema.getPossibleTypes(named)) types.add(possible.name);
  };
  visit(
    parse(document),
    visitWithTypeInfo(info, {
      Field() {
        const type = info.getType();
        add(type && getNamedType(type));
      },
      InlineFragment(node) {
        if (node.typeCondition) add(schema.getType(node.typeCondition.name.value));
      },
      FragmentDefinition(node) {
        add(schema.getType(node.typeCondition.name.value));
      },
    }),
  );
  return [...types].sort();
}

/** The backend's schema as the site declares it (site/schema.graphql). */
export async function loadSchema(file: string): Promise<GraphQLSchema> {
  return buildSchema(await readFile(file, 'utf8'));
}
