import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type sanitizeHtml from 'sanitize-html';

/**
 * SVG from the backend is re-hosted on the site's origin, where a browser opening it as a document
 * would run its scripts (issue 16.2). Every SVG is cleaned with sanitize-html (the library that cleans
 * rich text) in XML mode with an allowlist of drawing elements and attributes: no scripts, styles,
 * event handlers, `foreignObject`, images, external references (`href`, `url(…)` only to `#` in the
 * same file) or `javascript:` URLs. The result is checked once more, and an SVG that declares a DOCTYPE
 * (entities) or does not clean into one `<svg>` element is refused, naming the file.
 */

const TAGS = [
  'svg',
  'g',
  'defs',
  'title',
  'desc',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'textPath',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'pattern',
  'marker',
  'filter',
  'feGaussianBlur',
  'feOffset',
  'feBlend',
  'feColorMatrix',
  'feComposite',
  'feFlood',
  'feMerge',
  'feMergeNode',
  'feMorphology',
];

const ATTRIBUTES = [
  'xmlns',
  'xmlns:xlink',
  'version',
  'id',
  'class',
  'role',
  'aria-label',
  'aria-hidden',
  'focusable',
  'lang',
  'viewBox',
  'preserveAspectRatio',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'd',
  'points',
  'pathLength',
  'transform',
  'href',
  'xlink:href',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-miterlimit',
  'opacity',
  'color',
  'clip-path',
  'clip-rule',
  'mask',
  'filter',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternTransform',
  'patternContentUnits',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'markerWidth',
  'markerHeight',
  'refX',
  'refY',
  'orient',
  'marker-start',
  'marker-mid',
  'marker-end',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'dx',
  'dy',
  'rotate',
  'startOffset',
  'stdDeviation',
  'in',
  'in2',
  'result',
  'mode',
  'type',
  'values',
  'operator',
  'k1',
  'k2',
  'k3',
  'k4',
  'radius',
  'flood-color',
  'flood-opacity',
];

const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const XLINK_NAMESPACE = 'http://www.w3.org/1999/xlink';

// A reference is allowed only into the same file: href="#id", url(#id).
const LOCAL_REFERENCE = /^#[\w.:-]*$/;
const URL_FUNCTION = /url\s*\(/i;
const LOCAL_URL_FUNCTION = /^url\(\s*['"]?#[\w.:-]*['"]?\s*\)$/i;

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: TAGS,
  allowedAttributes: { '*': ATTRIBUTES },
  // No scheme at all: a reference is a fragment or nothing (checked in transformTags as well).
  allowedSchemes: [],
  allowedSchemesAppliedToAttributes: ['href', 'xlink:href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  parser: { xmlMode: true },
  selfClosing: [
    'path',
    'rect',
    'circle',
    'ellipse',
    'line',
    'polyline',
    'polygon',
    'stop',
    'use',
    'feGaussianBlur',
    'feOffset',
    'feBlend',
    'feColorMatrix',
    'feComposite',
    'feFlood',
    'feMergeNode',
    'feMorphology',
  ],
  transformTags: {
    '*': (tagName, attribs) => {
      const kept: Record<string, string> = {};
      for (const [name, value] of Object.entries(attribs)) {
        if ((name === 'href' || name === 'xlink:href') && !LOCAL_REFERENCE.test(value.trim())) continue;
        if (URL_FUNCTION.test(value) && !LOCAL_URL_FUNCTION.test(value.trim())) continue;
        // Only the SVG and XLink namespaces: an element in another (XHTML, say) is not a drawing.
        if (name === 'xmlns' && value !== SVG_NAMESPACE) continue;
        if (name === 'xmlns:xlink' && value !== XLINK_NAMESPACE) continue;
        kept[name] = value;
      }
      return { tagName, attribs: kept };
    },
  },
};

// What no cleaned SVG may hold, checked on the output as a second line of defence.
const FORBIDDEN =
  /<\s*(?:script|style|foreignObject|iframe|image|object|embed|a)\b|\son[a-z]+\s*=|javascript:|<!|<\?|(?:href|src)\s*=\s*"(?!#)/i;

/** An SVG the build will not re-host, with the reason. */
export class SvgRefused extends Error {}

/** Version of the cleaning rules: cached cleaned SVGs made under other rules are never reused. */
export const SVG_RULES_VERSION = createHash('sha256')
  .update(JSON.stringify(OPTIONS, (_key, value: unknown) => (typeof value === 'function' ? value.toString() : value)))
  .update(String(FORBIDDEN))
  .digest('hex')
  .slice(0, 12);

/** The cleaned SVG; throws SvgRefused when it cannot be made safe. */
export function sanitizeSvg(text: string): string {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) throw new SvgRefused('the SVG declares a DOCTYPE or entities, which the build does not re-host');
  const body = text.replace(/^\uFEFF?\s*<\?xml[^>]*\?>/, '').trim();
  sanitizer ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitizeHtml;
  const clean = sanitizer(body, OPTIONS).trim();
  if (!/^<svg\b[^>]*>[\s\S]*<\/svg>$/.test(clean) || clean.indexOf('<svg', 1) !== -1)
    throw new SvgRefused('the SVG does not clean into one <svg> element');
  if (FORBIDDEN.test(clean)) throw new SvgRefused('the cleaned SVG still holds a script, style, event handler or external reference');
  return clean + '\n';
}

let sanitizer: typeof sanitizeHtml | undefined;
