/**
 * JSON for inlining into HTML `<script type="application/json">` and for payload files.
 * `<`, `>` and `&` are escaped so no CMS string can close the script element or open a comment,
 * and U+2028/U+2029 so the text is also valid inside a JavaScript string.
 * The result is still plain JSON: JSON.parse returns the same value.
 */
export function serializeJson(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, (ch) => ESCAPES[ch] ?? ch);
}

// --- internal ---

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
