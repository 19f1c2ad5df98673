/** Escaping for text and attribute values written into HTML by the build (not by React). */

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes a string for use as HTML text or inside a double- or single-quoted attribute. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

/** Escapes a string for XML text and attributes (sitemap, feeds). */
export function escapeXml(value: string): string {
  // XML 1.0 forbids these control characters even when escaped.
  // eslint-disable-next-line no-control-regex
  return escapeHtml(value).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');
}
