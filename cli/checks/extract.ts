import { BOOT_SCRIPT_OPEN } from '../../runtime/shared/document-ids.ts';

/** What the content checks need to know about one rendered page. */
export interface PageFacts {
  /** The `<title>` text, entities decoded, or null without one. */
  title: string | null;
  /** Every `href` of an `<a>` or `<area>`, and every `src` of an `<img>`, entities decoded, in page order, deduplicated. */
  links: string[];
  /** Every `id` attribute value. */
  ids: string[];
  /** The `src` of each `<img>` without an `alt` attribute (`alt=""` marks a decorative image and is accepted). */
  imagesWithoutAlt: string[];
}

// One pass over the markup: the tags whose URLs are checked, and every id attribute elsewhere.
const SCAN = /<(a|area|img) ([^>]*)>| id="([^"]*)"/g;

/**
 * Reads the facts the content checks need from a page's HTML with one regular expression over the
 * markup: no DOM is built, so a 10,000-page build pays a fraction of a second, not many seconds. Only
 * the body before the inline boot data is scanned. React writes tag and attribute names in lower case,
 * separated by one space, with every value in double quotes, which is what the scan relies on.
 */
export function extractPageFacts(html: string): PageFacts {
  const boot = html.lastIndexOf(BOOT_SCRIPT_OPEN);
  const markup = boot === -1 ? html : html.slice(0, boot);
  const links = new Set<string>();
  const ids: string[] = [];
  const imagesWithoutAlt: string[] = [];
  // The head holds no links, images or ids the checks look at, only the title: the scan starts at <body.
  const bodyAt = markup.indexOf('<body');
  SCAN.lastIndex = Math.max(0, bodyAt);
  for (let match = SCAN.exec(markup); match !== null; match = SCAN.exec(markup)) {
    const [, tag, attrs, id] = match;
    if (id !== undefined) {
      ids.push(decodeEntities(id));
      continue;
    }
    const isImage = tag === 'img';
    const url = attributeOf(attrs!, isImage ? 'src' : 'href');
    if (url !== undefined) links.add(decodeEntities(url));
    if (isImage && attributeOf(attrs!, 'alt') === undefined) imagesWithoutAlt.push(decodeEntities(url ?? '(no src)'));
    const ownId = attributeOf(attrs!, 'id');
    if (ownId !== undefined) ids.push(decodeEntities(ownId));
  }
  const titleStart = bodyAt === -1 ? markup.indexOf('<title>') : markup.lastIndexOf('<title>', bodyAt);
  const title = titleStart === -1 ? null : decodeEntities(markup.slice(titleStart + 7, markup.indexOf('</title>', titleStart)));
  return { title, links: [...links], ids, imagesWithoutAlt };
}

// --- internal ---

/** The value of `name="…"` in a tag's attribute text, or undefined when the tag has no such attribute. */
function attributeOf(attrs: string, name: string): string | undefined {
  const key = `${name}="`;
  const at = attrs.startsWith(key) ? 0 : attrs.indexOf(` ${key}`) + 1;
  if (at === 0 && !attrs.startsWith(key)) return undefined;
  const start = at + key.length;
  return attrs.slice(start, attrs.indexOf('"', start));
}

function decodeEntities(value: string): string {
  if (!value.includes('&')) return value;
  return value.replace(
    /&(amp|lt|gt|quot|#39|#x27);/g,
    (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[e] ?? _,
  );
}
