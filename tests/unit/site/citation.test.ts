import { describe, expect, it } from 'vitest';
import { levelFromSearch, levelHref, levelsOf } from '../../../site/data/course-levels.ts';
import { relatedArticles } from '../../../site/build/related-news.ts';
import { bareDoi, citationName, formatCitation } from '../../../site/format/citation.ts';
import { newsItem } from './fixtures.ts';

describe('citations', () => {
  const item = {
    title: 'Listening to machines',
    year: 2025,
    publisher: 'Northlight Press',
    doi: 'https://doi.org/10.1234/abc',
    authors: [{ name: 'Ada Berg' }, { name: 'Ingrid van Dijk' }, { name: 'Jean-Luc Moreau' }],
  };

  it('reads as a reference: authors, year, title, publisher and DOI link', () => {
    expect(formatCitation(item)).toBe(
      'Berg, A., van Dijk, I., & Moreau, J.-L. (2025). Listening to machines. Northlight Press. https://doi.org/10.1234/abc',
    );
  });

  it('handles one author, no DOI and no authors at all', () => {
    expect(formatCitation({ ...item, authors: [{ name: 'Ada Berg' }], doi: null })).toBe(
      'Berg, A. (2025). Listening to machines. Northlight Press.',
    );
    expect(formatCitation({ ...item, authors: [], publisher: '' })).toBe('Listening to machines. (2025). https://doi.org/10.1234/abc');
  });

  it('accepts DOIs in every form editors paste them', () => {
    expect(['10.1234/abc', 'doi:10.1234/abc', 'DOI: 10.1234/abc', 'http://dx.doi.org/10.1234/abc'].map(bareDoi)).toEqual(
      Array(4).fill('10.1234/abc'),
    );
    expect(citationName('Plato')).toBe('Plato');
  });
});

describe('course levels', () => {
  const courses = ['Master', 'Open', 'Bachelor', 'Master', 'PhD'].map((level) => ({ level }));

  it('lists each level once, in the order students progress through them', () => {
    expect(levelsOf(courses)).toEqual(['Bachelor', 'Master', 'PhD', 'Open']);
  });

  it('reads the level from the query string, ignoring levels the list does not have', () => {
    expect(levelFromSearch('level=Master', levelsOf(courses))).toBe('Master');
    expect(levelFromSearch('level=Unknown', levelsOf(courses))).toBeNull();
    expect(levelFromSearch('', levelsOf(courses))).toBeNull();
    expect(levelHref('/courses', 'PhD')).toBe('/courses?level=PhD');
    expect(levelHref('/courses/page/2', null)).toBe('/courses/page/2');
  });
});

describe('related news', () => {
  const article = (id: string, tags: string[]) => ({ ...newsItem, id, slug: id, tags });

  it('prefers articles sharing more tags, then the nearest in time, and never the article itself', () => {
    const articles = [article('a', ['x', 'y']), article('b', ['x']), article('c', ['z']), article('d', ['x', 'y']), article('e', [])];
    const related = relatedArticles(articles, 3);
    expect(related.get('a')?.map((n) => n.id)).toEqual(['d', 'b', 'c']);
    expect(related.get('e')?.map((n) => n.id)).toEqual(['d', 'c', 'b']);
    expect(related.get('a')?.[0]).not.toHaveProperty('body');
  });

  it('on a large collection picks what the rule says: most shared tags among each tag’s 6 neighbours on either side, then the nearest, then the earlier; then the articles around it', () => {
    let seed = 11;
    const random = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    // Repeated tags, untagged articles, tags on thousands of articles and on a few.
    const articles = Array.from({ length: 3000 }, (_, i) =>
      article(
        `n${i}`,
        Array.from({ length: random(5) }, () => (random(3) === 0 ? 'common' : `t${random(40)}`)),
      ),
    );
    const reference = (index: number, size: number): string[] => {
      const scores = new Map<number, number>();
      for (const tag of new Set(articles[index]!.tags)) {
        const list = articles.flatMap((a, i) => (new Set(a.tags).has(tag) ? [i] : []));
        const at = list.indexOf(index);
        for (const other of list.slice(Math.max(0, at - 6), at + 7)) if (other !== index) scores.set(other, (scores.get(other) ?? 0) + 1);
      }
      const ranked = [...scores]
        .sort(([a, x], [b, y]) => y - x || Math.abs(a - index) - Math.abs(b - index) || a - b)
        .map(([other]) => other);
      for (let d = 1; ranked.length < size; d++)
        for (const other of [index - d, index + d])
          if (other >= 0 && other < articles.length && !scores.has(other) && ranked.length < size) ranked.push(other);
      return ranked.slice(0, size).map((i) => articles[i]!.id);
    };
    for (const size of [3, 8]) {
      const related = relatedArticles(articles, size);
      for (let i = 0; i < articles.length; i += 7)
        expect(
          related.get(`n${i}`)?.map((n) => n.id),
          `n${i}`,
        ).toEqual(reference(i, size));
    }
  });

  it('picks for the wanted articles only (a shard’s), from the whole collection all the same', () => {
    const articles = [article('a', ['x', 'y']), article('b', ['x']), article('c', ['z']), article('d', ['x', 'y']), article('e', [])];
    const related = relatedArticles(articles, 3, (a) => a.id === 'a' || a.id === 'e');
    expect([...related.keys()]).toEqual(['a', 'e']);
    expect(related.get('a')?.map((n) => n.id)).toEqual(['d', 'b', 'c']);
    expect(related.get('e')?.map((n) => n.id)).toEqual(['d', 'c', 'b']);
  });

  it('picks again when a tag or the order changed since the last call, and takes the cards as they are now', () => {
    // site live calls it once per update in one process: what it keeps of the last call must never outlive the collection it was picked from.
    const articles = [article('a', ['x', 'y']), article('b', ['x']), article('c', ['z']), article('d', ['x', 'y']), article('e', [])];
    expect(
      relatedArticles(articles, 3)
        .get('a')
        ?.map((n) => n.id),
    ).toEqual(['d', 'b', 'c']);
    const retitled = articles.map((a) => (a.id === 'd' ? { ...a, title: 'Retitled' } : a));
    expect(
      relatedArticles(retitled, 3)
        .get('a')
        ?.map((n) => n.title)[0],
    ).toBe('Retitled');
    const retagged = articles.map((a) => (a.id === 'c' ? { ...a, tags: ['x', 'y'] } : a));
    expect(
      relatedArticles(retagged, 3)
        .get('a')
        ?.map((n) => n.id),
    ).toEqual(['c', 'd', 'b']);
    const reordered = [articles[3]!, articles[1]!, articles[2]!, articles[0]!, articles[4]!];
    expect(
      relatedArticles(reordered, 3)
        .get('e')
        ?.map((n) => n.id),
    ).toEqual(['a', 'c', 'b']);
    expect(
      relatedArticles(articles, 2)
        .get('a')
        ?.map((n) => n.id),
    ).toEqual(['d', 'b']);
  });

  it('stays linear when one tag is on every article', () => {
    // No clock here: a quadratic pass over 20,000 articles takes minutes and fails on the test timeout;
    // the windowed one looks at a few neighbours of each article, which the answers below show.
    const articles = Array.from({ length: 20_000 }, (_, i) => article(`n${i}`, ['common']));
    const related = relatedArticles(articles, 3);
    expect(related.size).toBe(20_000);
    expect(related.get('n500')?.map((n) => n.id)).toEqual(['n499', 'n501', 'n498']);
    expect(related.get('n0')?.map((n) => n.id)).toEqual(['n1', 'n2', 'n3']);
    expect(related.get('n19999')?.map((n) => n.id)).toEqual(['n19998', 'n19997', 'n19996']);
  });
});
