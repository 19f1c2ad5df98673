import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { startStaticServer, type StaticServer } from '../../cli/serve/static-server.ts';
import { expect, test, waitForHydration } from './fixtures.ts';
import { buildPhotoSite } from './global-setup.ts';

/**
 * Images as editors upload them (issue 40): the site built from the backend's camera photos (4000×3000
 * JPEGs with GPS tags) by the real CLI when this file starts, served by the preview server, in Chromium
 * at a phone's and a laptop's viewport. The build's own checks of the files are in
 * tests/integration/images.test.ts.
 */

let server: StaticServer;
let dir: string;

test.beforeAll(async () => {
  // A cold build that encodes six camera photos, beside the other worker's tests.
  test.setTimeout(300_000);
  dir = await buildPhotoSite();
  server = await startStaticServer({ root: dir });
});

test.afterAll(async () => {
  await server?.close();
});

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true };
const LAPTOP = { viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 };

async function firstArticle(): Promise<string> {
  const html = await readFile(join(dir, 'news/index.html'), 'utf8');
  return /href="(\/news\/[a-z0-9-]+)"/.exec(html)![1]!;
}

/** The hero image's chosen file once it has loaded, in a fresh context (no file cached from another width). */
async function heroSource(
  browser: Browser,
  device: typeof PHONE | typeof LAPTOP,
  path: string,
): Promise<{ currentSrc: string; natural: number; shown: number }> {
  const context = await browser.newContext(device);
  try {
    const page = await context.newPage();
    await page.goto(server.url + path);
    const hero = page.locator('img.article__image');
    await expect.poll(() => hero.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    // naturalWidth is in CSS pixels for a srcset candidate (divided by its density): the file's own width is in its name.
    return await hero.evaluate((img: HTMLImageElement) => ({
      currentSrc: img.currentSrc,
      natural: Number(/\/(\d+)\.\w+$/.exec(img.currentSrc)![1]),
      shown: img.getBoundingClientRect().width * devicePixelRatio,
    }));
  } finally {
    await context.close();
  }
}

test.describe('images from camera photos', () => {
  test('a phone and a laptop each load the narrowest WebP that fills the article image, never the photo itself', async ({ browser }) => {
    const path = await firstArticle();
    const phone = await heroSource(browser, PHONE, path);
    const laptop = await heroSource(browser, LAPTOP, path);
    // 390 px less the gutters is about 350 CSS px, 1,050 device pixels: the 1,080 file. The laptop's
    // column is 48rem (768 px) at ratio 1: the 800 file.
    expect(phone.currentSrc).toMatch(/\/media\/_img\/[0-9a-f]{20}\/1080\.webp$/);
    expect(laptop.currentSrc).toMatch(/\/media\/_img\/[0-9a-f]{20}\/800\.webp$/);
    for (const { natural, shown } of [phone, laptop]) {
      expect(natural).toBeGreaterThanOrEqual(shown * 0.99);
      expect(natural).toBeLessThanOrEqual(shown * 1.5);
    }
  });

  test("the article's image loads first and eagerly, every other image lazily, each with its real size", async ({ page }) => {
    await page.goto(server.url + (await firstArticle()));
    const images = await page.locator('main img').evaluateAll((imgs: HTMLImageElement[]) =>
      imgs.map((img) => ({
        className: img.className,
        loading: img.getAttribute('loading'),
        priority: img.getAttribute('fetchpriority'),
        width: img.getAttribute('width'),
        height: img.getAttribute('height'),
      })),
    );
    expect(images[0]).toMatchObject({ className: 'article__image', loading: 'eager', priority: 'high' });
    // The backend claims 1200×675 for every news image; the photo is 4000×3000.
    expect(images[0]).toMatchObject({ width: '4000', height: '3000' });
    for (const image of images.slice(1)) expect(image).toMatchObject({ loading: 'lazy', priority: null });
    // The head asks for the same file before the stylesheet and scripts: the preload and the <img> agree.
    const [preload, hero] = await Promise.all([
      page
        .locator('head link[rel="preload"][as="image"]')
        .evaluate((link) => [link.getAttribute('imagesrcset'), link.getAttribute('imagesizes'), link.getAttribute('fetchpriority')]),
      page.locator('img.article__image').evaluate((img) => [img.getAttribute('srcset'), img.getAttribute('sizes'), 'high']),
    ]);
    expect(preload).toEqual(hero);
    expect(
      await page.evaluate(
        () =>
          [...document.head.children].findIndex((e) => e.matches('link[rel=preload][as=image]')) <
          [...document.head.children].findIndex((e) => e.matches('link[rel=stylesheet]')),
      ),
    ).toBe(true);
  });

  test('no image file a phone loads on the home page has more than twice the pixels it is shown at', async ({ browser }) => {
    const context = await browser.newContext(PHONE);
    const page = await context.newPage();
    const bytes = new Map<string, number>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'image')
        void response.body().then(
          (b) => bytes.set(response.url(), b.length),
          () => undefined,
        );
    });
    await page.goto(server.url + '/');
    await scrollToBottom(page);
    const shown = await page.locator('img').evaluateAll((imgs: HTMLImageElement[]) =>
      imgs
        .filter((img) => img.complete && img.naturalWidth > 0 && img.currentSrc.includes('/media/_img/'))
        .map((img) => {
          const box = img.getBoundingClientRect();
          // The file's pixels: its width is in its name (naturalWidth is divided by the candidate's
          // density), its height follows from the image's aspect ratio. object-fit: cover shows the
          // file scaled to cover the box: what it shows is the box.
          const width = Number(/\/(\d+)\.\w+$/.exec(img.currentSrc)![1]);
          const height = (width * Number(img.getAttribute('height'))) / Number(img.getAttribute('width'));
          return { src: img.currentSrc, natural: width * height, shown: box.width * box.height * devicePixelRatio ** 2 };
        }),
    );
    await context.close();
    expect(shown.length).toBeGreaterThan(0);
    for (const image of shown) expect(image.natural / image.shown, image.src).toBeLessThanOrEqual(2);
    expect([...bytes.keys()].filter((url) => /\/media\/(?!_img\/)/.test(url))).toEqual([]);
  });

  test('a page the runtime renders from its payload shows the same images as the prerendered page', async ({ page }) => {
    const path = await firstArticle();
    const prerendered = await readFile(join(dir, path.slice(1), 'index.html'), 'utf8');
    await page.goto(server.url + '/news');
    await waitForHydration(page);
    await page.locator(`main a[href="${path}"]`).first().click();
    await expect(page).toHaveURL(server.url + path);
    const hero = page.locator('img.article__image');
    await expect(hero).toBeVisible();
    const rendered = await hero.evaluate((img: HTMLImageElement) =>
      ['src', 'srcset', 'sizes', 'width', 'height', 'alt', 'loading', 'fetchpriority'].map((name) => [name, img.getAttribute(name)]),
    );
    const expected = await page.evaluate((html) => {
      const img = new DOMParser().parseFromString(html, 'text/html').querySelector('img.article__image')!;
      return ['src', 'srcset', 'sizes', 'width', 'height', 'alt', 'loading', 'fetchpriority'].map((name) => [name, img.getAttribute(name)]);
    }, prerendered);
    expect(rendered).toEqual(expected);
    expect(Object.fromEntries(rendered).srcset).toContain('.webp 1600w');
  });
});

async function scrollToBottom(page: Page): Promise<void> {
  for (let y = 0; ; y += 400) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    if (y > height) break;
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(50);
  }
  await page.waitForLoadState('networkidle');
}
