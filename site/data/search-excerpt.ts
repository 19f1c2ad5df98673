/**
 * Pagefind's excerpts are text with the matched words in `<mark>` and `<`, `>` written as `&lt;`, `&gt;`.
 * The search page never inserts them as HTML: it splits them into text and marked parts and renders
 * those as React text, so whatever the indexed pages held, an excerpt cannot become markup.
 */

export interface ExcerptPart {
  text: string;
  /** A word the search matched. */
  mark: boolean;
}

/** The excerpt as text and marked parts, in order; empty parts are dropped. */
export function excerptParts(excerpt: string): ExcerptPart[] {
  const parts: ExcerptPart[] = [];
  let mark = false;
  for (const piece of excerpt.split(/(<\/?mark>)/)) {
    if (piece === '<mark>' || piece === '</mark>') {
      mark = piece === '<mark>';
      continue;
    }
    const text = decode(piece);
    if (text === '') continue;
    const last = parts.at(-1);
    if (last && last.mark === mark) last.text += text;
    else parts.push({ text, mark });
  }
  return parts;
}

// --- internal ---

/** Pagefind escapes only `<` and `>`; any other tag-like text is left as the text it is. */
function decode(text: string): string {
  return text.replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}
