/**
 * Orders two strings by UTF-16 code units, as `<` does: the same order on every machine, whatever its
 * locale, which reproducible output (sitemaps, manifests, feeds, upload plans) needs. For `sort`.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
