/**
 * XML text escaping for the feeds. cli/render/html.ts has the same rule, but site code never imports the build
 * tool (imports flow cli → site), so the few lines live here too.
 */

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** Escapes a string for XML text and attribute values, dropping the control characters XML 1.0 forbids. */
export function escapeXml(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '').replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] ?? ch);
}

/** `<name>text</name>`, escaped; nothing for an empty value. */
export function element(name: string, text: string | undefined | null, attributes = ''): string {
  return text ? `<${name}${attributes}>${escapeXml(text)}</${name}>` : '';
}

/** Root-relative `src` and `href` attributes of rich text made absolute: feed readers have no page URL to resolve them against. */
export function absolutizeHtml(html: string, baseUrl: string): string {
  return html.replace(/(\s(?:src|href))="\/(?!\/)/g, `$1="${baseUrl}/`);
}
