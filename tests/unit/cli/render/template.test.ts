import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../helpers/cli.ts';
import { fillShell, parseShell } from '../../../../cli/render/template.ts';

const TEMPLATE =
  '<!doctype html>\n<html lang="<!--app-lang-->"><head><meta charset="utf-8"><!--app-csp--><!--app-head--></head><body><div id="app"><!--app-html--></div><!--app-boot--><!--app-scripts--></body></html>';

describe('document shell', () => {
  it('fills every placeholder in place', () => {
    const html = fillShell(parseShell(TEMPLATE), {
      '<!--app-lang-->': 'en',
      '<!--app-csp-->': '<meta http-equiv="Content-Security-Policy" content="default-src">',
      '<!--app-head-->': '<title>T</title>',
      '<!--app-html-->': '<p>hi</p>',
      '<!--app-boot-->': '<script type="application/json">{}</script>',
      '<!--app-scripts-->': '<script type="module" src="/e.js"></script>',
    });
    expect(html).toBe(
      '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src"><title>T</title></head><body><div id="app"><p>hi</p></div><script type="application/json">{}</script><script type="module" src="/e.js"></script></body></html>',
    );
  });

  it('names the file and the placeholder when one is missing', () => {
    expect(() => parseShell(TEMPLATE.replace('<!--app-boot-->', ''), 'templates/document.html')).toThrow(
      'templates/document.html must contain <!--app-boot--> exactly once (found 0)',
    );
    expect(() => parseShell(TEMPLATE.replace('<!--app-csp-->', ''))).toThrow('must contain <!--app-csp--> exactly once (found 0)');
  });

  it('refuses a template that puts anything the policy would govern before the policy', () => {
    for (const early of [
      '<script>alert(1)</script>',
      '<link rel="stylesheet" href="/x.css">',
      '<style>p{}</style>',
      '<meta name="viewport" content="width=device-width">',
    ]) {
      expect(() => parseShell(TEMPLATE.replace('<!--app-csp-->', early + '<!--app-csp-->'), 'templates/document.html'), early).toThrow(
        /templates\/document.html has .* before <!--app-csp-->/,
      );
    }
    // The project's own template passes.
    expect(() => parseShell(TEMPLATE.replace('<!--app-csp-->', '\n    <!-- the policy first -->\n    <!--app-csp-->'))).not.toThrow();
  });

  it("the project's template puts the policy first in <head>", async () => {
    const template = await readFile(join(ROOT, 'templates/document.html'), 'utf8');
    expect(() => parseShell(template)).not.toThrow();
    expect(template).toMatch(/<head>\s*<meta charset="utf-8">\s*<!--app-csp-->/);
  });
});
