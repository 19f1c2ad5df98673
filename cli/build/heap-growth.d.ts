/** See heap-growth.js. */
export const HEAP_GROWING_PERCENT: number;
export function setHeapGrowth(): void;
export function holdingPages(): () => void;
