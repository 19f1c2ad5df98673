import type { PersonRefData } from '../queries/common.ts';

/**
 * Citations and DOIs. The citation follows APA's reference-list shape, which most readers and reference
 * managers accept when pasted: `Berg, A., & Lind, B. (2025). Title. Publisher. https://doi.org/…`.
 */

/** The fields of a publication a citation needs. */
export interface Citable {
  title: string;
  year: number;
  publisher: string;
  doi: string | null;
  authors: readonly Pick<PersonRefData, 'name'>[];
}

/** Editors paste DOIs in every form (`10.1234/x`, `doi:10.1234/x`, `https://doi.org/10.1234/x`); this is the bare `10.1234/x`. */
export function bareDoi(doi: string): string {
  return doi.trim().replace(/^(?:doi:\s*|https?:\/\/(?:dx\.)?doi\.org\/)/i, '');
}

/** The resolver URL of a DOI, whatever form it was typed in. */
export function doiUrl(doi: string): string {
  return `https://doi.org/${bareDoi(doi)}`;
}

/** `Ada Berg` → `Berg, A.`; lower-case particles stay with the surname: `Ingrid van Dijk` → `van Dijk, I.`. */
export function citationName(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length <= 1) return parts[0] ?? '';
  let split = parts.length - 1;
  while (split > 1 && /^[a-z]/.test(parts[split - 1] ?? '')) split--;
  const surname = parts.slice(split).join(' ');
  const initials = parts
    .slice(0, split)
    .map((given) =>
      given
        .split('-')
        .map((piece) => `${piece.charAt(0).toUpperCase()}.`)
        .join('-'),
    )
    .join(' ');
  return `${surname}, ${initials}`;
}

/** The authors of a reference: `A`, `A, & B`, `A, B, & C`. */
export function citationAuthors(authors: readonly Pick<PersonRefData, 'name'>[]): string {
  const names = authors.map((author) => citationName(author.name)).filter(Boolean);
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')}, & ${names[names.length - 1]}`;
}

/** The whole reference as one line of plain text, ready to paste. */
export function formatCitation(item: Citable): string {
  const authors = citationAuthors(item.authors);
  const title = item.title.trim().replace(/[.\s]+$/, '');
  const parts = [
    authors ? `${authors} (${item.year}).` : `${title}. (${item.year}).`,
    authors ? `${title}.` : '',
    item.publisher ? `${item.publisher.trim().replace(/\.$/, '')}.` : '',
    item.doi ? doiUrl(item.doi) : '',
  ];
  return parts.filter(Boolean).join(' ');
}
