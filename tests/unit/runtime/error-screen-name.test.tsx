import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ErrorScreen, errorMessageFor } from '../../../runtime/error-screen.tsx';

/**
 * The error screen shows its status as coloured digit blocks, hidden from assistive technology; the
 * heading's accessible name says it instead ("Error 404"), so a screen reader user hears the status.
 */
describe('the error screen', () => {
  it.each([
    [404, 'The page could not be found.'],
    [500, 'The backend failed.'],
    [503, 'The backend failed.'],
  ])('names its heading "Error %i" and hides the digit blocks from assistive technology', (status, message) => {
    const html = renderToStaticMarkup(<ErrorScreen error={{ status, message: 'The backend failed.', fatal: false }} />);
    const heading = /<h1 class="error-screen__code" aria-label="([^"]*)">(.*?)<\/h1>/.exec(html);
    expect(heading?.[1]).toBe(`Error ${status}`);
    const digits = [
      ...heading![2]!.matchAll(/<span class="error-screen__digit error-screen__digit--(\d)" aria-hidden="true">(\d)<\/span>/g),
    ];
    expect(digits.map((d) => d[2]).join('')).toBe(String(status));
    expect(digits.map((d) => d[1])).toEqual(['0', '1', '2']);
    expect(html).toContain(`<p class="error-screen__message">${message}</p>`);
    expect(html).toContain(`data-status="${status}"`);
  });

  it("says a fixed sentence for 404 and the error's own message otherwise", () => {
    expect(errorMessageFor({ status: 404, message: 'GET /x: no item', fatal: false })).toBe('The page could not be found.');
    expect(errorMessageFor({ status: 500, message: 'Boom', fatal: true })).toBe('Boom');
  });
});
