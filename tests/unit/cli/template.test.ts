import { describe, expect, it } from 'vitest';
import { fillShell, parseShell } from '../../../cli/template.ts';

const TEMPLATE = '<html lang="<!--app-lang-->"><head><!--app-head--></head><body><div id="app"><!--app-html--></div><!--app-boot--><!--app-scripts--></body></html>';

describe('document shell', () => {
  it('fills every placeholder in place', () => {
    const html = fillShell(parseShell(TEMPLATE), {
      '<!--app-lang-->': 'en',
      '<!--app-head-->': '<title>T</title>',
      '<!--app-html-->': '<p>hi</p>',
      '<!--app-boot-->': '<script type="application/json">{}</script>',
      '<!--app-scripts-->': '<script type="module" src="/e.js"></script>',
    });
    expect(html).toBe('<html lang="en"><head><title>T</title></head><body><div id="app"><p>hi</p></div><script type="application/json">{}</script><script type="module" src="/e.js"></script></body></html>');
  });

  it('names the file and the placeholder when one is missing', () => {
    expect(() => parseShell(TEMPLATE.replace('<!--app-boot-->', ''), 'templates/document.html')).toThrow('templates/document.html must contain <!--app-boot--> exactly once (found 0)');
  });
});
