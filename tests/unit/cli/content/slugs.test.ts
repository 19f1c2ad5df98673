import { describe, expect, it } from 'vitest';
import { createDuplicateCheck, crawl, pathFor } from '../../../../cli/content/crawl.ts';
import { isBuildError, type PageFailure } from '../../../../cli/errors/errors.ts';
import { findBadSlug, findItemId, quoteSlug, slugProblem } from '../../../../cli/content/slugs.ts';
import type { RouteDefinition } from '../../../../runtime/routes.ts';
import type { RouteDataContext, RouteDataDefinition } from '../../../../runtime/shared/route-data.ts';

const route: RouteDefinition = {
  id: 'news-article',
  page: 'news-article',
  path: '/news/:slug',
  load: () => Promise.reject(new Error('not loaded')),
  head: () => ({ title: '', description: '' }),
};

function thrown(run: () => unknown): { code: string; message: string; hint: string } {
  try {
    run();
  } catch (error) {
    if (isBuildError(error)) return error;
    throw error;
  }
  throw new Error('expected a BuildError');
}

describe('slugProblem', () => {
  it.each([
    ['annual-report-2024', null],
    ['v1.2_beta~3', null],
    ['', 'it is empty'],
    ['..', 'contains ..'],
    ['a..b', 'contains ..'],
    ['../x', 'slash'],
    ['a/b', 'slash'],
    ['a\\b', 'backslash'],
    ['%2e%2e', 'contains %'],
    ['a\u0000b', 'control characters'],
    ['a\u007fb', 'control characters'],
    ['caf\u00e9', 'non-ASCII'],
    ['\u0430pple', 'non-ASCII'],
    ['News', 'capital letters'],
    ['-lead', 'does not start with a letter or digit'],
    ['.hidden', 'does not start with a letter or digit'],
    ['a b', 'characters other than'],
    ['x'.repeat(201), 'more than 200'],
  ])('says what is wrong with %j', (slug, problem) => {
    const found = slugProblem(slug);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toContain(problem);
  });
});

describe('finding the item a slug belongs to', () => {
  const answer = {
    newsItems: {
      nodes: [
        { id: 'news-1', slug: 'fine' },
        { id: 'news-2', slug: '../up', category: { slug: 'ok' } },
      ],
    },
  };

  it('names the first item with an unusable slug by its id', () => {
    expect(findBadSlug(answer)).toEqual({ id: 'news-2', slug: '../up', problem: expect.stringContaining('slash') as unknown });
  });

  it('names the enclosing item and field for a nested object without an id', () => {
    expect(findBadSlug({ events: { nodes: [{ id: 'event-7', slug: 'fine', category: { slug: 'Bad Category' } }] } })?.id).toBe(
      'event-7 (its category)',
    );
  });

  it('finds no problem in a clean answer', () => {
    expect(findBadSlug({ site: { name: 'x', navigation: [{ slug: 'news' }] } })).toBeNull();
  });

  it("finds an item's id by its slug", () => {
    expect(findItemId({ newsItem: { id: 42, slug: 'x' } }, 'x')).toBe('42');
    expect(findItemId({ newsItem: { slug: 'x' } }, 'x')).toBeNull();
  });

  it('quotes slugs so control characters show and long ones are cut', () => {
    expect(quoteSlug('a\u0000b')).toBe('"a\\u0000b"');
    expect(quoteSlug('x'.repeat(300))).toMatch(/^"x{78}…" \(300 characters\)$/);
  });
});

describe('pathFor', () => {
  it('names the item id, the slug and the fix when the entry data has the item', () => {
    const error = thrown(() => pathFor(route, { slug: '..\\evil' }, { newsItem: { id: 'news-9', slug: '..\\evil' } }));
    expect(error.code).toBe('UnsafeSlug');
    expect(error.message).toBe(
      `The item news-9 has the slug "..\\\\evil", which cannot be the page path of route news-article (/news/:slug): it is not a safe 'slug' path segment.`,
    );
    expect(error.hint).toContain('lowercase letters, digits and hyphens');
  });

  it('names the route and param when there is no item to name', () => {
    expect(thrown(() => pathFor(route, { slug: '../x' })).code).toBe('UnsafePath');
  });
});

describe('createDuplicateCheck', () => {
  it('fails on two pages that differ only by case, naming both', () => {
    const check = createDuplicateCheck();
    const error = thrown(() => ['/news/a', '/news/Report', '/news/report'].forEach(check));
    expect(error.code).toBe('DuplicateOutput');
    expect(error.message).toBe("Two pages write to news/report/index.html: '/news/Report' and '/news/report'.");
  });

  it('names the items whose slugs collide when it has the pages’ data', () => {
    const check = createDuplicateCheck();
    check('/news/report', { newsItem: { id: 'news-7', slug: 'report' }, related: { nodes: [] } });
    const error = thrown(() => check('/news/report', { newsItem: { id: 'news-9', slug: 'report' } }));
    expect(error.message).toBe("Two pages write to news/report/index.html: '/news/report' (item news-7) and '/news/report' (item news-9).");
  });
});

describe('crawl', () => {
  it('checks the slugs of every list answer before the route code turns them into pages', async () => {
    const seen: string[] = [];
    const routeData: Record<string, RouteDataDefinition> = {
      'news-article': {
        query: 'query NewsArticle { x }',
        async *entries(ctx) {
          const { items } = await ctx.request<{ items: { id: string; slug: string }[] }>('query List { items { id slug } }');
          for (const item of items) {
            seen.push(item.slug);
            yield { params: { slug: item.slug }, data: { item } };
          }
        },
      },
    };
    const ctx: RouteDataContext = {
      request: <T>() =>
        Promise.resolve({
          items: [
            { id: 'a-1', slug: 'fine' },
            { id: 'a-2', slug: 'n\u0435ws' },
          ],
        } as T),
    };
    const failures: PageFailure[] = [];
    const error = await (async () => {
      for await (const job of crawl([route], routeData, ctx, (f) => failures.push(f))) void job;
    })().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isBuildError(error) && error.code).toBe('UnsafeSlug');
    expect((error as Error).message).toContain('The item a-2 has the slug "nеws"');
    expect(seen).toEqual([]);
    expect(failures).toEqual([]);
  });
});
