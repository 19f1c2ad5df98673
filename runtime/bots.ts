/** Search-engine and link-preview crawlers (the reference system's rule): they never get the error screen. */
const BOT_PATTERN = /bot\b|chrome-lighthouse|facebookexternalhit|google\b/i;

export function isBot(userAgent: string): boolean {
  return BOT_PATTERN.test(userAgent);
}
