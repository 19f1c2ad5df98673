import type { OutputDefinition } from '../runtime/shared/route-data.ts';

/** Site-specific files written beside the pages (feeds, calendars). Each gets every page's data. */
export const outputs: readonly OutputDefinition[] = [];
