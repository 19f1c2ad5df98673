/**
 * Slugs are untrusted (docs/decisions/untrusted-content.md): they become folder names and URLs. These pure checks say
 * what is wrong with one, and find the item a bad slug belongs to, so the build can name it.
 */

/** Longest slug accepted; longer ones overflow file-name limits once nested. */
export const MAX_SLUG_LENGTH = 200;

/**
 * Why `slug` cannot be an item's path segment, or null when it can: lowercase ASCII letters, digits and
 * `-._~`, starting with a letter or digit, at most 200 characters. Capitals are refused because pages
 * whose paths differ only by case collide on case-insensitive file systems and hosts.
 */
export function slugProblem(slug: string): string | null {
  // The usual case first, in one test: every answer's every slug passes through here.
  if (SLUG.test(slug) && slug.length <= MAX_SLUG_LENGTH && !slug.includes('..')) return null;
  if (slug === '') return 'it is empty';
  if (slug.length > MAX_SLUG_LENGTH) return `it is ${slug.length} characters long, more than ${MAX_SLUG_LENGTH}`;
  if (/\p{Cc}/u.test(slug)) return 'it contains control characters';
  if (/[^\p{ASCII}]/u.test(slug)) return 'it contains non-ASCII characters, which can look like others (Unicode look-alikes)';
  if (/[/\\]/.test(slug)) return 'it contains a slash or backslash, which would make it a folder path';
  if (slug.includes('%')) return 'it contains %, which would be decoded into another character';
  if (slug.includes('..')) return 'it contains .., which could point outside its folder';
  if (/[A-Z]/.test(slug)) return 'it contains capital letters (paths differing only by case collide on case-insensitive hosts)';
  if (!SLUG.test(slug)) return 'it contains characters other than a-z, 0-9 and -._~, or does not start with a letter or digit';
  return null;
}

/** A slug with an unusable value, found in a backend answer. */
export interface BadSlug {
  /** The item's id, or the nearest enclosing item's id and the field that holds it. */
  id: string;
  slug: string;
  problem: string;
}

/** The first object in `value` (depth first) whose string `slug` is unusable. */
export function findBadSlug(value: unknown): BadSlug | null {
  return walk(value, null, '');
}

/**
 * The id of the item in `data` whose `slug` is `slug`, for naming it in errors; null when none has one.
 * `depth` limits how many levels below `data` are looked at (1: its own fields), for a search that
 * runs on every page.
 */
export function findItemId(data: unknown, slug: string, depth = Infinity): string | null {
  if (depth < 0) return null;
  if (Array.isArray(data)) {
    for (const item of data) {
      const id = findItemId(item, slug, depth - 1);
      if (id !== null) return id;
    }
    return null;
  }
  if (data === null || typeof data !== 'object') return null;
  const record = data as Record<string, unknown>;
  if (record.slug === slug && (typeof record.id === 'string' || typeof record.id === 'number')) return String(record.id);
  for (const child of Object.values(record)) {
    const id = findItemId(child, slug, depth - 1);
    if (id !== null) return id;
  }
  return null;
}

/** Quotes a slug for a message: control characters visible, at most 80 characters. */
export function quoteSlug(slug: string): string {
  const quoted = JSON.stringify(slug);
  return quoted.length > 82 ? `${quoted.slice(0, 79)}…" (${slug.length} characters)` : quoted;
}

// --- internal ---

const SLUG = /^[a-z0-9][a-z0-9._~-]*$/;

function walk(value: unknown, ownerId: string | null, field: string): BadSlug | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = walk(item, ownerId, field);
      if (found) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const ownId = typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : null;
  if (typeof record.slug === 'string') {
    const problem = slugProblem(record.slug);
    if (problem)
      return {
        id: ownId ?? (ownerId ? `${ownerId} (its ${field})` : `without an id (field ${field || 'slug'})`),
        slug: record.slug,
        problem,
      };
  }
  for (const key of Object.keys(record)) {
    const child = record[key];
    // Only objects and arrays can hold a slug: the field path is made for those alone.
    if (child === null || typeof child !== 'object') continue;
    const found = walk(child, ownId ?? ownerId, ownId ? key : field ? `${field}.${key}` : key);
    if (found) return found;
  }
  return null;
}
