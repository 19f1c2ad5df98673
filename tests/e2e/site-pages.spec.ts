import { expect, recordDocuments, test, waitForHydration } from './fixtures.ts';

/** What visitors do on the institute's pages, in Chromium against the built site served statically (no API). */

test.describe('course list', () => {
  test('filters by level in place: no page load, the level in the address, every other course hidden', async ({
    page,
    site,
    consoleProblems,
  }) => {
    await page.goto(site.url + '/courses');
    await waitForHydration(page);
    const documents = recordDocuments(page);
    const courses = page.locator('.course-list > li');
    const total = await courses.count();
    await page.evaluate(() => window.scrollTo(0, 200));

    await page.getByRole('link', { name: 'Master', exact: true }).click();
    await expect(page).toHaveURL(/\/courses\?level=Master$/);
    await expect.poll(() => courses.count()).toBeLessThan(total);
    expect(new Set(await page.locator('.course').evaluateAll((els) => els.map((el) => el.getAttribute('data-level'))))).toEqual(
      new Set(['Master']),
    );
    await expect(page.getByRole('status').filter({ hasText: 'Master course' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Master', exact: true })).toHaveAttribute('aria-current', 'true');

    await page.getByRole('link', { name: 'All levels' }).click();
    await expect(courses).toHaveCount(total);
    expect(documents).toEqual([]);
    expect(consoleProblems).toEqual([]);
  });

  test('opened with a level in the address, shows that level once hydrated, without a hydration mismatch', async ({
    page,
    site,
    consoleProblems,
  }) => {
    await page.goto(site.url + '/courses?level=PhD');
    await waitForHydration(page);
    await expect
      .poll(() => page.locator('.course').evaluateAll((els) => [...new Set(els.map((el) => el.getAttribute('data-level')))]))
      .toEqual(['PhD']);
    expect(consoleProblems).toEqual([]);
  });
});

test.describe('paged lists without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every news article is reachable from /news by following "Older", the archive numbered from its oldest page', async ({
    page,
    site,
  }) => {
    await page.goto(site.url + '/news');
    const total = Number(/of (\d+) articles/.exec((await page.locator('.list-count').textContent()) ?? '')?.[1]);
    await expect(page.locator('.pagination [aria-current="page"]')).toHaveText('Latest');
    const articles = new Set<string>();
    const current: number[] = [];
    for (let step = 0; step < 20; step++) {
      for (const href of await page.locator('main .card__link').evaluateAll((links) => links.map((a) => a.getAttribute('href'))))
        articles.add(href!);
      const older = page.getByRole('link', { name: 'Older' });
      if ((await older.count()) === 0) break;
      await older.click();
      await expect(page).toHaveURL(/\/news\/page\/\d+$/);
      current.push(Number(/\d+/.exec((await page.locator('.pagination [aria-current="page"]').textContent()) ?? '')?.[0]));
      // An archive page names the days it spans, not the collection's size.
      await expect(page.locator('.list-count')).toHaveText(/^12 articles, from .+ to .+\.$/);
    }
    expect(total).toBeGreaterThan(24);
    expect(articles.size).toBe(total);
    // Newest first down to page 1, the oldest articles.
    expect(current).toEqual(Array.from({ length: current.length }, (_, i) => current.length - i));
    await page.getByRole('link', { name: 'Newer' }).click();
    await expect(page).toHaveURL(/\/news\/page\/2$/);
  });
});

test.describe('events', () => {
  test('an event page offers an .ics file that calendar apps accept', async ({ page, site }) => {
    const path = site.meta.prerendered.find((p) => /^\/events\/(?!page\/)[^/]+\/[^/]+$/.test(p))!;
    await page.goto(site.url + path);
    await waitForHydration(page);
    const link = page.getByRole('link', { name: /Add to calendar/ });
    const href = (await link.getAttribute('href'))!;
    expect(href).toBe(`${path}.ics`);
    const response = await page.request.get(site.url + href);
    expect(response.headers()['content-type']).toMatch(/^text\/calendar/);
    expect(await response.text()).toMatch(
      /^BEGIN:VCALENDAR\r\n[\s\S]*X-WR-TIMEZONE:Europe\/Oslo\r\n[\s\S]*BEGIN:VEVENT[\s\S]*END:VCALENDAR\r\n$/,
    );
    const download = page.waitForEvent('download');
    await link.click();
    expect((await download).suggestedFilename()).toMatch(/\.ics$/);
  });

  test('/events lists what is coming up and leads on to the past events', async ({ page, site }) => {
    await page.goto(site.url + '/events');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { name: 'Upcoming' })).toBeVisible();
    await page.getByRole('link', { name: 'Past events' }).click();
    await expect(page).toHaveURL(/\/events\/page\/2$/);
    await expect(page.getByRole('heading', { name: 'Past events' })).toBeVisible();
  });
});

test.describe('publication', () => {
  test('copies a ready-made citation to the clipboard', async ({ page, site, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    const path = site.meta.prerendered.find((p) => /^\/publication\/[^/]+\/[^/]+$/.test(p) && !p.includes('/page/'))!;
    await page.goto(site.url + path);
    await waitForHydration(page);
    const citation = (await page.locator('.citation__text').textContent())!;
    expect(citation).toMatch(/^.+ \(\d{4}\)\. .+\./);
    await page.getByRole('button', { name: 'Copy citation' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(citation);
  });

  test('links each author to their entry in the people directory', async ({ page, site }) => {
    const path = site.meta.prerendered.find((p) => /^\/publication\/[^/]+\/[^/]+$/.test(p) && !p.includes('/page/'))!;
    await page.goto(site.url + path);
    await waitForHydration(page);
    const author = page.locator('.byline a').first();
    const name = (await author.textContent())!;
    await author.click();
    await expect(page).toHaveURL(/\/about\/people#c-person-/);
    await expect(page.locator(`${new URL(page.url()).hash} .person-card__name`)).toHaveText(name);
  });
});

test.describe('structured data and feeds', () => {
  for (const pattern of [
    /^\/news\/(?!page\/)[^/]+$/,
    /^\/events\/(?!page\/)[^/]+\/[^/]+$/,
    /^\/publication\/[^/]+\/[^/]+$/,
    /^\/courses$/,
    /^\/$/,
  ]) {
    test(`JSON-LD in the head leaves hydration of ${pattern.source} clean`, async ({ page, site, consoleProblems }) => {
      const path = site.meta.prerendered.find((p) => pattern.test(p))!;
      await page.goto(site.url + path);
      await waitForHydration(page);
      const scripts = await page.locator('head script[type="application/ld+json"]').allTextContents();
      expect(scripts.length).toBeGreaterThan(0);
      for (const json of scripts) expect(JSON.parse(json)['@context']).toBe('https://schema.org');
      expect(consoleProblems).toEqual([]);
    });
  }

  test('the footer links both feeds, which are served as RSS', async ({ page, site }) => {
    await page.goto(site.url + '/about');
    for (const name of ['News (RSS)', 'Events (RSS)']) {
      const href = (await page.getByRole('link', { name }).getAttribute('href'))!;
      const response = await page.request.get(site.url + href);
      expect(response.ok()).toBe(true);
      expect(await response.text()).toContain('<rss version="2.0"');
    }
  });
});

test.describe('a visitor in another time zone', () => {
  // The browser's own zone is not the institute's: the page must not follow it, or hydration would mismatch.
  test.use({ timezoneId: 'America/New_York' });

  test("an event's times read in the institute's zone, with its abbreviation, and hydrate without a mismatch", async ({
    page,
    site,
    consoleProblems,
  }) => {
    const path = site.meta.prerendered.find((p) => /^\/events\/(?!page\/)[^/]+\/[^/]+$/.test(p))!;
    await page.goto(site.url + path);
    await waitForHydration(page);
    const when = (await page.locator('.event-when').first().textContent())!;
    expect(when).toMatch(/\d{2}:\d{2}.*\b(CET|CEST)\b/);
    expect(when).not.toContain('UTC');
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!) as
      | { startDate?: string }
      | { startDate?: string }[];
    const event = [ld].flat().find((item) => item.startDate);
    expect(event?.startDate).toMatch(/T\d{2}:\d{2}:\d{2}\+0[12]:00$/);
    expect(consoleProblems).toEqual([]);
  });
});
