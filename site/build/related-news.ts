import { createHash } from 'node:crypto';
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
 * The cards come from `articles` as they are now; which articles they are is taken from the last call
 * when the collection's order and tags are as they were (lastRanking).
 */
export function relatedArticles(
  articles: readonly NewsRelatedData[],
  size: number,
  wanted?: (article: NewsRelatedData) => boolean,
): Map<string, NewsCardData[]> {
  let ranked: Int32Array;
  if (wanted) ranked = rank(articles, size, wanted);
  else {
    const signature = signatureOf(articles, size);
    if (lastRanking?.signature !== signature) lastRanking = { signature, ranked: rank(articles, size, () => true) };
    ranked = lastRanking.ranked;
  }
  const related = new Map<string, NewsCardData[]>();
  articles.forEach((article, index) => {
    if (wanted && !wanted(article)) return;
    const cards: NewsCardData[] = [];
    for (let k = index * size; k < (index + 1) * size && ranked[k]! >= 0; k++) cards.push(toCard(articles[ranked[k]!]!));
    related.set(article.id, cards);
  });
  return related;
}

/** The card fields of an article (NEWS_CARD_FRAGMENT), without its body and tags. */
export function toCard({ id, slug, title, updatedAt, date, summary, image }: NewsRelatedData): NewsCardData {
  return { id, slug, title, updatedAt, date, summary, image };
}

// --- internal ---

/**
 * The last whole collection's related articles by index, and a hash of what they were picked from: in a
 * process that builds again and again (`site live`), an edit that leaves every article's place and tags
 * as they were (a title, a body, a date that keeps the order) picks nothing again. 120 kB at 10,000 articles.
 */
let lastRanking: { signature: string; ranked: Int32Array } | null = null;

/** A hash of what the picking reads of a collection: each article's id and tags, in order, and the number wanted. */
function signatureOf(articles: readonly NewsRelatedData[], size: number): string {
  const hash = createHash('sha256').update(String(size));
  // JSON: no id or tag can pass for another's (a separator inside a tag would).
  for (const article of articles) hash.update(JSON.stringify([article.id, article.tags]));
  return hash.digest('base64url');
}

/**
 * Each wanted article's related articles, best first, by index: article i's are at i × size onwards,
 * -1 where it has fewer (and for an article not wanted).
 */
function rank(articles: readonly NewsRelatedData[], size: number, wanted: (article: NewsRelatedData) => boolean): Int32Array {
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

  const picked = new Int32Array(articles.length * size).fill(-1);
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
    picked.set(ranked.slice(0, size), index * size);
  });
  return picked;
}
