import { readFile } from 'node:fs/promises';
import {
  buildSchema,
  getNamedType,
  isAbstractType,
  isCompositeType,
  isInterfaceType,
  isObjectType,
  Kind,
  parse,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

/**
 * Which content types a GraphQL document reads: the object type of every field it selects, at any depth
 * (an article's author is a Person, so a page that shows the author reads Person), every type an
 * interface or union field can return, and each fragment's type; scalars and enums are not types the
 * feed names. The change feed names
 * the types of the items that changed; a route none of whose documents read a changed type cannot have
 * changed, so a build with a feed need not ask the backend for its pages again (build/incremental/changed-routes.ts).
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

/**
 * The object types whose items may come in the document's answer without their `id` (as the key `id`):
 * a field of that type (or of an interface or union it belongs to) whose selection, fragments included,
 * does not select `id` unaliased and unconditionally. A page's data names by id every item of the other
 * types it holds, so a change to one of them reaches exactly the pages whose data holds its id
 * (build/incremental/changed-routes.ts); a change to a type listed here could be in any page of the route.
 */
export function typesWithoutIds(schema: GraphQLSchema, document: string): string[] {
  const ast = parse(document);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of ast.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const applies = (condition: string | undefined, type: GraphQLObjectType): boolean => {
    if (condition === undefined || condition === type.name) return true;
    const named = schema.getType(condition);
    return !!named && isAbstractType(named) && schema.isSubType(named, type);
  };
  const selectsId = (set: SelectionSetNode, type: GraphQLObjectType, seen: ReadonlySet<string>): boolean =>
    set.selections.some((selection) => {
      // A condition (@include, @skip) may leave the id out.
      if (selection.directives?.length) return false;
      if (selection.kind === Kind.FIELD) return selection.name.value === 'id' && (!selection.alias || selection.alias.value === 'id');
      if (selection.kind === Kind.INLINE_FRAGMENT)
        return applies(selection.typeCondition?.name.value, type) && selectsId(selection.selectionSet, type, seen);
      const fragment = fragments.get(selection.name.value);
      if (!fragment || seen.has(fragment.name.value)) return false;
      return (
        applies(fragment.typeCondition.name.value, type) && selectsId(fragment.selectionSet, type, new Set([...seen, fragment.name.value]))
      );
    });
  const info = new TypeInfo(schema);
  const without = new Set<string>();
  visit(
    ast,
    visitWithTypeInfo(info, {
      Field(node) {
        const type = info.getType();
        const named = type && getNamedType(type);
        if (!node.selectionSet || !named || !isCompositeType(named)) return;
        for (const possible of objectTypesOf(schema, named)) {
          if (!selectsId(node.selectionSet, possible, new Set())) without.add(possible.name);
        }
      },
    }),
  );
  return [...without].sort();
}

/**
 * The object types a document selects inside another item: beneath a field whose type is an object or
 * interface with an `id` (a project's publications, a publication's file or authors), fragments on such
 * a type included. Those come from the backend's relations, which can gain an item that changed (one
 * published from a draft, one that now names this item) while the page's own item stays as it was; so a
 * change to such a type may reach any page of the route (build/incremental/changed-routes.ts). A list at the top of
 * the query (related articles) is the route's entries' to give, and their key's to tell apart.
 */
export function typesNestedInItems(schema: GraphQLSchema, document: string): string[] {
  const isItem = (named: GraphQLNamedType): boolean => (isObjectType(named) || isInterfaceType(named)) && 'id' in named.getFields();
  const info = new TypeInfo(schema);
  const nested = new Set<string>();
  // Per field being visited, whether its type is an item; and how many of them enclose the current field.
  const items: boolean[] = [];
  let inside = 0;
  visit(
    parse(document),
    visitWithTypeInfo(info, {
      FragmentDefinition: {
        enter(node) {
          const type = schema.getType(node.typeCondition.name.value);
          items.push(!!type && isItem(type));
          if (items.at(-1)) inside++;
        },
        leave() {
          if (items.pop()) inside--;
        },
      },
      Field: {
        enter() {
          const type = info.getType();
          const named = type && getNamedType(type);
          const composite = !!named && isCompositeType(named);
          if (composite && inside > 0) for (const possible of objectTypesOf(schema, named)) nested.add(possible.name);
          items.push(composite && isItem(named));
          if (items.at(-1)) inside++;
        },
        leave() {
          if (items.pop()) inside--;
        },
      },
    }),
  );
  return [...nested].sort();
}

/** The object types a field of this type can answer with: the type itself, or every type an interface or union can be. */
function objectTypesOf(schema: GraphQLSchema, named: GraphQLNamedType): readonly GraphQLObjectType[] {
  return isAbstractType(named) ? schema.getPossibleTypes(named) : isObjectType(named) ? [named] : [];
}

/** The backend's schema as the site declares it (site/schema.graphql). */
export async function loadSchema(file: string): Promise<GraphQLSchema> {
  return buildSchema(await readFile(file, 'utf8'));
}
