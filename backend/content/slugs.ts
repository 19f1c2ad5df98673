/**
 * Slugs and dates for content records. Slugs are lowercase a-z, 0-9 and hyphens because the site turns
 * them into output paths; dates are ISO strings because that is the wire format.
 */

/**
 * Turns a title or name into a slug: transliterates Nordic letters, drops other diacritics and punctuation.
 * @example slugify('Elin Sørvik') // 'elin-sorvik'
 */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

/**
 * Returns a function that slugifies and makes each slug unique within one scope (a type or a category)
 * by appending `-2`, `-3`, ...
 */
export function createSlugScope(): (text: string) => string {
  const seen = new Set<string>();
  return (text) => {
    const base = slugify(text);
    let slug = base;
    for (let n = 2; seen.has(slug); n++) slug = `${base}-${n}`;
    seen.add(slug);
    return slug;
  };
}

const DAY_MS = 86_400_000;

/** Calendar date `days` after `start` (an ISO date), as an ISO date. */
export function addDays(start: string, days: number): string {
  return new Date(Date.parse(`${start}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from ISO date `from` to ISO date `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** A DateTime at `date` (ISO date) and `time` (`HH:MM`, UTC). */
export function atTime(date: string, time: string): string {
  return `${date}T${time}:00Z`;
}

/** The DateTime `hours` after `dateTime`, in the same `…:00Z` format. */
export function addHours(dateTime: string, hours: number): string {
  return new Date(Date.parse(dateTime) + hours * 3_600_000).toISOString().replace('.000Z', 'Z');
}
