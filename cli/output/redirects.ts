import type { RouteRule } from '../../runtime/shared/contract.ts';
import { htmlFileFor } from '../../runtime/shared/paths.ts';
import { escapeHtml } from '../render/html.ts';
import { cspMetaTag } from '../render/csp.ts';

/** A static redirect page for each exact-path redirect rule, for first visits and visitors without JavaScript. */
export function renderRedirectPages(
  rules: Readonly<Record<string, RouteRule>>,
  baseUrl: string,
  csp: string | null = null,
): { file: string; content: string }[] {
  return Object.entries(rules)
    .filter(([pattern, rule]) => rule.redirect && !pattern.includes('*'))
    .map(([path, rule]) => {
      const target = new URL(rule.redirect!, baseUrl + '/');
      const href = target.origin === new URL(baseUrl).origin ? target.pathname + target.search + target.hash : target.href;
      return {
        file: htmlFileFor(path),
        content: `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">${csp ? cspMetaTag(csp) : ''}<title>Moved</title><meta name="robots" content="noindex"><link rel="canonical" href="${escapeHtml(target.href)}"><meta http-equiv="refresh" content="0; url=${escapeHtml(href)}"></head><body><p>This page has moved to <a href="${escapeHtml(href)}">${escapeHtml(href)}</a>.</p></body></html>\n`,
      };
    });
}
