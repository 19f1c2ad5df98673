/** See from-sources.js. */
export function registerTsx(): void;
