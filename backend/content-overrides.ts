/**
 * Content overrides: a JSON file, named by the CONTENT_OVERRIDES_FILE environment variable, that
 * changes what the embedded backend serves without touching backend/content/. Tests use it for content
 * with known problems (a broken link), and `site dev` watches it, so a content change can be tried
 * without a CMS. The file is read when the backend starts; `site dev` restarts the backend when it changes.
 *
 * @example
 * {
 *   "site": { "name": "Northlight (staging)" },
 *   "home": { "title": "Welcome" },
 *   "news": [{ "slug": "an-existing-slug", "title": "A new title", "body": "<p>New text</p>" }]
 * }
 *
 * `site` and `home` are merged field by field. In a list (news, events, publications, courses, projects,
 * documents, people, episodes, pages and the category lists) an entry whose slug exists is merged into
 * that item; an entry with a new slug is added as it is, so it must carry every field of its type.
 */
import { readFileSync } from 'node:fs';
import type { Content } from './content/types.ts';

const LISTS = [
  'news',
  'events',
  'publications',
  'courses',
  'projects',
  'documents',
  'people',
  'episodes',
  'pages',
  'eventCategories',
  'publicationCategories',
  'documentCategories',
] as const;

type Overrides = Partial<Record<'site' | 'home', Record<string, unknown>> & Record<(typeof LISTS)[number], Record<string, unknown>[]>>;

/** Reads the overrides file; no file name, or a file that does not exist, means no overrides. Throws, naming the file, on bad JSON. */
export function readContentOverrides(file: string | undefined): Overrides | null {
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`CONTENT_OVERRIDES_FILE ${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error(`CONTENT_OVERRIDES_FILE ${file} must hold a JSON object such as {"home": {"title": "…"}}`);
  for (const key of Object.keys(parsed)) {
    const value = (parsed as Record<string, unknown>)[key];
    const isList = (LISTS as readonly string[]).includes(key);
    if (!isList && key !== 'site' && key !== 'home')
      throw new Error(`CONTENT_OVERRIDES_FILE ${file} has an unknown key '${key}'; use site, home or one of ${LISTS.join(', ')}`);
    if (isList && (!Array.isArray(value) || value.some((v) => typeof v?.slug !== 'string')))
      throw new Error(`CONTENT_OVERRIDES_FILE ${file}: '${key}' must be a list of objects, each with a slug`);
  }
  return parsed as Overrides;
}

/**
 * An item with some fields replaced. The item keeps its prototype: scaled content (scale-entries.ts)
 * computes most fields in getters, which a plain spread would drop.
 */
function patched<T extends object>(item: T, patch: object): T {
  const copy = Object.create(Object.getPrototypeOf(item) as object | null) as T;
  Object.defineProperties(copy, { ...Object.getOwnPropertyDescriptors(item), ...Object.getOwnPropertyDescriptors(patch) });
  return copy;
}

/** The content with the overrides applied. Pure: `content` is not changed. */
export function applyContentOverrides(content: Content, overrides: Overrides | null): Content {
  if (!overrides) return content;
  const out: Record<string, unknown> = { ...content };
  if (overrides.site) out.site = { ...content.site, ...overrides.site };
  if (overrides.home) out.home = { ...content.home, ...overrides.home };
  for (const key of LISTS) {
    const patches = overrides[key];
    if (!patches) continue;
    const items = [...(content[key] as readonly { slug: string }[])];
    for (const patch of patches) {
      const at = items.findIndex((item) => item.slug === patch.slug);
      if (at === -1) items.push(patch as { slug: string });
      else items[at] = patched(items[at]!, patch);
    }
    out[key] = items;
  }
  return out as unknown as Content;
}
