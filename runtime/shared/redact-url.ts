/**
 * Endpoints may carry credentials (`https://user:pass@host/…`, `?token=…`). Whatever prints a URL (the
 * GraphQL transport's errors, the CLI's logger and error output, the build report) shows it through
 * redactUrl or redactUrlsIn, so a secret never reaches a terminal, a CI log or a report file.
 */

/** What a secret is replaced with. */
export const REDACTED = '***';

/** Query parameters whose value is a secret: names holding token, key, secret, password, signature, credential, auth or session. */
const SECRET_PARAM = /token|key|secret|passw|pwd|sig|credential|auth|session/i;

/** `url` with its user info and the values of secret-looking query parameters replaced by REDACTED; the rest as it was. */
export function redactUrl(url: string): string {
  return url
    .replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#@\s]*@/i, `$1${REDACTED}@`)
    .replace(/([?&;])([^=&#;\s]+)=([^&#;\s]*)/g, (whole, sep: string, name: string, value: string) =>
      value && SECRET_PARAM.test(decodeName(name)) ? `${sep}${name}=${REDACTED}` : whole,
    );
}

/** `text` with every absolute URL in it redacted as redactUrl does. */
export function redactUrlsIn(text: string): string {
  return text.includes('://') ? text.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>`]+/gi, redactUrl) : text;
}

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}
