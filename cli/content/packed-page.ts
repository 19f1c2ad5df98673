import type { PageRecord } from './query.ts';

/**
 * A page held ahead while the client bundles, as its JSON's UTF-8 bytes alone: about a third of the page
 * held as its parsed data beside its JSON string (most pages hold a character outside Latin-1, so the
 * string takes two bytes a character), and outside the heap, so no collection marks it. A cold build
 * holds the whole sample site this way while rollup builds its module graph in the bundle thread.
 */
export interface PackedPage {
  record: PageRecord;
  bytes: Buffer;
}

/** The page without its data and its JSON string, and the JSON as UTF-8. */
export function packPage(record: PageRecord): PackedPage {
  return { record: { ...record, data: undefined, json: '' }, bytes: Buffer.from(record.json) };
}

/** The page as it was packed: serializeJson's output is JSON, so its data parses back from it. */
export function unpackPage({ record, bytes }: PackedPage): PageRecord {
  const json = bytes.toString();
  return { ...record, json, data: JSON.parse(json) };
}
