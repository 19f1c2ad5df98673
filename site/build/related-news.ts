import type { NewsCardData, NewsRelatedData } from '../queries/news.ts';

/**
 * Related articles, picked at build time because the API has no notion of them: articles that share the
 * most tags with an article, the nearest in time first. Only a few neighbours per tag are looked at, so
 * the cost grows with the number of articles, not with its square, even when one tag is on thousands.
 */

/** Neighbours looked at on each side of an article within one tag's list. */
const TAG_WINDOW = 6;

/**
 * Related cards per article id, `size` each where the collection has enough articles, for the articles
 * `wanted` accepts (a shard's own; by default all): each is picked from the whole collection all the same.
 */
export function relatedArticles(
  articles: readonly NewsRelatedData[],
  size: number,
  wanted: (article: NewsRelatedData) => boolean = () => true,
): Map<string, NewsCardData[]> {
  const byTag = new Map<string, number[]>();
  articles.forEach((article, index) => {
    for (const tag of new Set(article.tags)) {
      const list = byTag.get(tag);
      if (list) list.push(index);
      else byTag.set(tag, [index]);
    }
  });
  const positions = new Map<string, Map<number, number>>();
  for (const [tag, list] of byTag) positions.set(tag, new Map(list.map((index, position) => [index, position])));

  const related = new Map<string, NewsCardData[]>();
  articles.forEach((article, index) => {
    if (!wanted(article)) return;
    const scores = new Map<number, number>();
    for (const tag of new Set(article.tags)) {
      const list = byTag.get(tag) ?? [];
      const at = positions.get(tag)?.get(index) ?? 0;
      for (const other of list.slice(Math.max(0, at - TAG_WINDOW), at + TAG_WINDOW + 1)) {
        if (other !== index) scores.set(other, (scores.get(other) ?? 0) + 1);
      }
    }
    const ranked = [...scores]
      .sort(([a, scoreA], [b, scoreB]) => scoreB - scoreA || Math.abs(a - index) - Math.abs(b - index) || a - b)
      .map(([other]) => other);
    // Untagged or unusual articles still point somewhere: the articles published around them.
    for (let distance = 1; ranked.length < size && distance < articles.length; distance++) {
      for (const other of [index - distance, index + distance]) {
        if (other >= 0 && other < articles.length && !scores.has(other) && ranked.length < size) ranked.push(other);
      }
    }
    related.set(
      article.id,
      ranked.slice(0, size).map((other) => toCard(articles[other]!)),
    );
  });
  return related;
}

/** The card fields of an article (NEWS_CARD_FRAGMENT), without its body and tags. */
export function toCard({ id, slug, title, updatedAt, date, summary, image }: NewsRelatedData): NewsCardData {
  return { id, slug, title, updatedAt, date, summary, image };
}
