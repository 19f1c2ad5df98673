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
  // Each tag's articles by index, ascending (they are pushed in order): an article's place in a list is found by bisection.
  const byTag = new Map<string, number[]>();
  articles.forEach((article, index) => {
    for (const tag of new Set(article.tags)) {
      const list = byTag.get(tag);
      if (list) list.push(index);
      else byTag.set(tag, [index]);
    }
  });

  const picked = new Int32Array(articles.length * size).fill(-1);
  // The candidates of one article and their scores (shared tags), reused from one article to the next:
  // at most 2 × TAG_WINDOW per tag, so looked up by a scan. An object or two per article instead of a
  // map, lists and pairs: at 10,000 articles, ranking made some 30 MB of garbage.
  const candidates: number[] = [];
  const scores: number[] = [];
  const order: number[] = [];
  articles.forEach((article, index) => {
    if (!wanted(article)) return;
    candidates.length = 0;
    scores.length = 0;
    for (const tag of new Set(article.tags)) {
      const list = byTag.get(tag)!;
      const at = placeOf(list, index);
      for (let k = Math.max(0, at - TAG_WINDOW); k <= Math.min(list.length - 1, at + TAG_WINDOW); k++) {
        const other = list[k]!;
        if (other === index) continue;
        const seen = candidates.indexOf(other);
        if (seen >= 0) scores[seen]!++;
        else {
          candidates.push(other);
          scores.push(1);
        }
      }
    }
    order.length = 0;
    for (let c = 0; c < candidates.length; c++) order.push(c);
    order.sort(
      (x, y) =>
        scores[y]! - scores[x]! || Math.abs(candidates[x]! - index) - Math.abs(candidates[y]! - index) || candidates[x]! - candidates[y]!,
    );
    let filled = 0;
    for (; filled < order.length && filled < size; filled++) picked[index * size + filled] = candidates[order[filled]!]!;
    // Untagged or unusual articles still point somewhere: the articles published around them.
    for (let distance = 1; filled < size && distance < articles.length; distance++) {
      for (const other of [index - distance, index + distance]) {
        if (other >= 0 && other < articles.length && filled < size && !candidates.includes(other)) picked[index * size + filled++] = other;
      }
    }
  });
  return picked;
}

/** Where `index` is in `list` (ascending), or where it would go. */
function placeOf(list: readonly number[], index: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < index) low = middle + 1;
    else high = middle;
  }
  return low;
}
