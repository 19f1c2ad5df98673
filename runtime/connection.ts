/** Network Information API fields we read; absent in Firefox and Safari (then nothing is slow). */
interface ConnectionInfo {
  saveData?: boolean;
  effectiveType?: string;
}

function connection(): ConnectionInfo | undefined {
  return (navigator as Navigator & { connection?: ConnectionInfo }).connection;
}

/** Link prefetching is skipped on Save-Data and on any 2g connection (docs/decisions/navigation-by-payloads.md, constants). */
export function isSlowConnection(): boolean {
  const c = connection();
  return !!c && (c.saveData === true || String(c.effectiveType ?? '').includes('2g'));
}

/** The route manifest is fetched unless the connection is slow-2g (docs/decisions/navigation-by-payloads.md, constants). */
export function isVerySlowConnection(): boolean {
  return connection()?.effectiveType === 'slow-2g';
}
