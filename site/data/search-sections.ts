/**
 * The sections the site search sorts its results into, in the order the search page offers them as
 * filters. The build tags each entry with one (site/build/search-entries.ts); the search page shows
 * its label.
 */
export const SEARCH_SECTIONS = [
  { id: 'news', label: 'News' },
  { id: 'events', label: 'Events' },
  { id: 'publications', label: 'Publications' },
  { id: 'research', label: 'Research' },
  { id: 'courses', label: 'Courses' },
  { id: 'documents', label: 'Documents' },
  { id: 'people', label: 'People' },
  { id: 'about', label: 'About' },
] as const;

export type SearchSection = (typeof SEARCH_SECTIONS)[number]['id'];

/** A section's label; an id the list does not know is shown as it is. */
export function sectionLabel(id: string): string {
  return SEARCH_SECTIONS.find((s) => s.id === id)?.label ?? id;
}
