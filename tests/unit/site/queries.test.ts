import { readFileSync, readdirSync } from 'node:fs';
import { buildSchema, parse, specifiedRules, validate, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { queryLimitsRule } from '../../../backend/guards.ts';
import { composeDocument, composeItemsDocument, defineFragment, type ItemField } from '../../../site/queries/document.ts';

/**
 * Every GraphQL document the site sends is checked against the content schema, so a renamed field or a
 * missing fragment fails here rather than halfway through a build against a live backend.
 */

const queriesDir = new URL('../../../site/queries/', import.meta.url);
const schema = buildSchema(readFileSync(new URL('../../../site/schema.graphql', import.meta.url), 'utf8'));

async function exportedQueries(): Promise<Array<[string, string]>> {
  const files = readdirSync(queriesDir).filter((f) => f.endsWith('.ts'));
  const found: Array<[string, string]> = [];
  for (const file of files) {
    const mod = (await import(new URL(file, queriesDir).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (name.endsWith('_QUERY') && typeof value === 'string') found.push([`${file}:${name}`, value]);
    }
  }
  return found;
}

const queries = await exportedQueries();

/** The item fields the build asks for many items of at once (site/build/items.ts). */
async function exportedItemFields(): Promise<Array<[string, ItemField]>> {
  const found: Array<[string, ItemField]> = [];
  for (const file of readdirSync(queriesDir).filter((f) => f.endsWith('.ts'))) {
    const mod = (await import(new URL(file, queriesDir).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value === 'object' && value !== null && 'perRequest' in value && 'fragment' in value)
        found.push([`${file}:${name}`, value as ItemField]);
    }
  }
  return found;
}

const itemFields = await exportedItemFields();

describe('site GraphQL documents', () => {
  it('finds the documents of every content area', () => {
    const files = new Set(queries.map(([id]) => id.split(':')[0]));
    for (const area of [
      'site',
      'home',
      'news',
      'events',
      'publications',
      'people',
      'pages',
      'podcast',
      'courses',
      'research',
      'documents',
    ]) {
      expect(files).toContain(`${area}.ts`);
    }
  });

  it.each(queries)('%s is a complete document that validates against the schema', (_id, source) => {
    const errors = validate(schema, parse(source));
    expect(errors.map((e) => e.message)).toEqual([]);
  });

  it.each(queries)('%s holds exactly one named operation', (_id, source) => {
    const operations = parse(source).definitions.filter((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
    expect(operations).toHaveLength(1);
    expect(operations[0]?.name?.value).toMatch(/^[A-Z]\w+$/);
  });

  it('gives every operation a name no other document uses, so build errors point at one query', () => {
    const names = queries.map(([, source]) => /(?:query|mutation)\s+(\w+)/.exec(source)?.[1]);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('batch documents of items by their params', () => {
  it('exist for every item route', () => {
    expect(itemFields.map(([, field]) => field.operation).sort()).toEqual([
      'EventsBySlug',
      'NewsArticlesBySlug',
      'PublicationsBySlug',
      'ResearchProjectsBySlug',
    ]);
  });

  it.each(itemFields)('%s, at its largest, validates against the schema within the embedded backend’s query limits', (_id, field) => {
    const errors = validate(schema, parse(composeItemsDocument(field, field.perRequest)), [...specifiedRules, queryLimitsRule]);
    expect(errors.map((e) => e.message)).toEqual([]);
    expect(() => composeItemsDocument(field, field.perRequest + 1)).toThrow(RangeError);
  });

  it('asks for each item under its own alias with its own variables', () => {
    const doc = composeItemsDocument(itemFields.find(([, f]) => f.operation === 'EventsBySlug')![1], 2);
    expect(doc).toContain('query EventsBySlug($category0: String!, $slug0: String!, $category1: String!, $slug1: String!)');
    expect(doc).toContain('item1: event(category: $category1, slug: $slug1) {');
  });
});

describe('composeDocument', () => {
  const inner = defineFragment('fragment Inner on Image { url }');
  const outer = defineFragment('fragment Outer on NewsItem { image { ...Inner } }', [inner]);

  it('appends fragments used indirectly, each once', () => {
    const doc = composeDocument('query Q { newsItems { nodes { ...Outer image { ...Inner } } } }', [outer, inner]);
    expect(doc.match(/fragment Inner/g)).toHaveLength(1);
    expect(validate(schema, parse(doc))).toEqual([]);
  });

  it('refuses two different fragments with the same name', () => {
    const clash = defineFragment('fragment Inner on Image { alt }');
    expect(() => composeDocument('query Q { site { name } }', [outer, clash])).toThrow(/Inner/);
  });

  it('refuses a source that is not a fragment definition', () => {
    expect(() => defineFragment('query Q { site { name } }')).toThrow(/Not a GraphQL fragment/);
  });
});
