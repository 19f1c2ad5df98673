/** See heap-growth.js. */
export const HEAP_GROWING_PERCENT: number;
export const MIN_GROWTH_BYTES: number;
export const SMALL_HEAP_BYTES: number;
export function growingPercent(usedBytes: number): number;
export function setHeapGrowth(): void;
export function holdingPages(): () => void;
export function renderingPages(): () => void;
