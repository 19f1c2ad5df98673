/**
 * The browser's live-data chunk, loaded on first use only (editor preview, login, a payload that cannot
 * be loaded): this site's route queries with the runtime's GraphQL client and rich-text sanitiser. The
 * route table hands it to the runtime, so none of it (graphql-request, graphql, DOMPurify) is first-load JS.
 */
export { liveQueries } from './route-queries.ts';
export { createRuntimeClient } from '../runtime/graphql-client.ts';
export { sanitizeLiveData } from '../runtime/live-sanitize.ts';
