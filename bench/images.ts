/**
 * Images as editors upload them (issue 40): `npm run bench:images [-- --runs 3 --photos 1000]`.
 * The embedded backend serves every image as a 4000×3000 camera JPEG (`content serve --photos`), and:
 *  1. encode cost: CPU per 12-megapixel photo for each format's derivatives (sharp on this process's
 *     threads, so process CPU time counts all of it), and for the default set (target ≤ 1 s);
 *  2. the sample site with photos built cold, then warm builds of it interleaved with warm builds of the
 *     same site with SVGs: median wall time and the ratio (target ≤ 1.05);
 *  3. the image bytes a 390×844 phone at device pixel ratio 3 loads on `/`, scrolled top to bottom
 *     (target ≤ 1 MB), and the largest ratio of a file's pixels to the pixels it is shown at (≤ 2);
 *  4. Lighthouse's mobile profile on `/`, `/news`, an article, an event and `/about/about-large`, the
 *     median of 3 runs each
 *     (bench/lighthouse.ts, performance ≥ 98, cumulative layout shift 0);
 *  5. the peak memory of a build of a synthetic site with about `--photos` distinct photos, none
 *     encoded before, the client bundle in the cache (target ≤ 600 MiB).
 * `--parts 2,3` runs only those parts (4 needs 2's site). Exits 1 when a build fails or a target is
 * missed; a run that exits non-zero is no figure.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { cameraPhoto } from '../backend/photos.ts';
import { encodeDerivatives } from '../cli/content/images/image-codec.ts';
import { planDerivatives } from '../cli/content/images/image-plan.ts';
import { DEFAULT_IMAGE_WIDTHS, type DerivedFormat } from '../cli/content/images/image-settings.ts';
import { startStaticServer } from '../cli/serve/static-server.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import { startScaledBackend } from './backend.ts';
import { measure, median, printTable, removeAfterwards, type Measurement } from './measure.ts';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    photos: { type: 'string', default: '1000' },
    parts: { type: 'string', default: '1,2,3,4,5' },
  },
});
const parts = new Set(values.parts.split(',').map(Number));
const RUNS = Math.max(1, Number(values.runs));
const SITE = join(import.meta.dirname, '../bin/site.js');
const work = await mkdtemp(join(tmpdir(), 'bench-images-'));
const misses: string[] = [];
const check = (ok: boolean, what: string): string => {
  if (!ok) misses.push(what);
  return ok ? 'holds' : 'MISSED';
};

const build = async (backend: { url: string }, out: string, cache: string): Promise<Measurement> => {
  const m = await measure(
    process.execPath,
    [SITE, 'build', '--endpoint', backend.url, '--out', join(work, out), '--cache-dir', join(work, cache), '--no-report', '--no-search'],
    { env: { NODE_ENV: 'production', CI: 'true' } },
  );
  if (m.code !== 0) throw new Error(`build of ${out} failed (exit ${m.code}):\n${m.stdout}\n${m.stderr}`);
  return m;
};

if (parts.has(1)) await encodeCost();
if (parts.has(2) || parts.has(3) || parts.has(4)) {
  const photoSite = await sampleSite();
  if (parts.has(3)) await homePageOnPhone(photoSite);
  if (parts.has(4)) await lighthouseScores(photoSite);
}
if (parts.has(5)) await manyPhotos(Number(values.photos));

console.log(removeAfterwards(work));
if (misses.length > 0) {
  console.error(`Missed:\n  ${misses.join('\n  ')}`);
  process.exitCode = 1;
}

// --- the parts ---

/** 1. CPU per photo for each format's derivatives (sharp runs on this process's threads). */
async function encodeCost(): Promise<void> {
  console.log('1. Encode cost of one 4000×3000 camera photo (medians of 3 photos)');
  const photos = await Promise.all(
    [0, 1, 2].map(async (i) => {
      const file = join(work, `photo-${i}.jpg`);
      await writeFile(file, await cameraPhoto(`/media/bench/photo-${i}.jpg`));
      return file;
    }),
  );
  const cpuMs = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const costOf = async (formats: DerivedFormat[]): Promise<{ ms: number; bytes: number }> => {
    const ms: number[] = [];
    const bytes: number[] = [];
    for (const file of photos) {
      const plan = planDerivatives(
        '0'.repeat(20),
        { format: 'jpeg', width: 4000, height: 3000, hasAlpha: false },
        { widths: DEFAULT_IMAGE_WIDTHS, formats, fallbackWidth: 1200, maxPixels: 1e8, service: null },
      );
      const start = cpuMs();
      const files = await encodeDerivatives(file, plan, { maxPixels: 1e8 });
      ms.push(cpuMs() - start);
      bytes.push([...files.values()].reduce((sum, b) => sum + b.length, 0));
    }
    return { ms: median(ms), bytes: median(bytes) };
  };
  const webp = await costOf(['webp']);
  const avif = await costOf(['avif']);
  const both = await costOf(['avif', 'webp']);
  printTable([
    ['set', 'CPU per photo', 'bytes (all files)'],
    ['webp + JPEG fallback (default)', `${Math.round(webp.ms)} ms`, `${Math.round(webp.bytes / 1024)} KiB`],
    ['avif + JPEG fallback', `${Math.round(avif.ms)} ms`, `${Math.round(avif.bytes / 1024)} KiB`],
    ['avif + webp + JPEG fallback', `${Math.round(both.ms)} ms`, `${Math.round(both.bytes / 1024)} KiB`],
  ]);
  console.log(
    `default set ${Math.round(webp.ms)} ms of CPU per photo, target ≤ 1000 ms: ${check(webp.ms <= 1000, `encode cost ${Math.round(webp.ms)} ms > 1000 ms`)}\n`,
  );
}

/** 2. The photo sample built cold, then warm builds of it interleaved with warm builds of the SVG sample. Returns the cold build's folder. */
async function sampleSite(): Promise<string> {
  console.log('2. The sample site, every image a camera photo');
  const photoBackend = await startScaledBackend(SITE, null, { photos: true });
  const svgBackend = await startScaledBackend(SITE, null);
  try {
    const cold = await build(photoBackend, 'photos-cold', 'photo-cache');
    console.log(
      `cold build ${(cold.ms / 1000).toFixed(1)} s, peak ${Math.round(cold.peakMiB)} MiB: ${/\[media\] .*/.exec(cold.stdout)?.[0] ?? ''}`,
    );
    await build(svgBackend, 'svg-warmup', 'svg-cache');
    const warmPhotos: number[] = [];
    const warmSvgs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      warmSvgs.push((await build(svgBackend, `svg-${i}`, 'svg-cache')).ms);
      warmPhotos.push((await build(photoBackend, `photos-${i}`, 'photo-cache')).ms);
    }
    const ratio = median(warmPhotos) / median(warmSvgs);
    console.log(
      `warm build with photos ${(median(warmPhotos) / 1000).toFixed(2)} s, with SVGs ${(median(warmSvgs) / 1000).toFixed(2)} s (medians of ${RUNS}, interleaved): ${ratio.toFixed(3)}×, target ≤ 1.05: ${check(ratio <= 1.05, `warm build ${ratio.toFixed(3)}× the SVG site's`)}\n`,
    );
    return join(work, 'photos-cold');
  } finally {
    await photoBackend.close();
    await svgBackend.close();
  }
}

/** 3. The image bytes a phone loads on the home page, scrolled to the bottom, and how many pixels each file has against those it shows. */
async function homePageOnPhone(site: string): Promise<void> {
  console.log('3. The home page on a 390×844 phone at device pixel ratio 3, scrolled to the bottom');
  const server = await startStaticServer({ root: site });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 3,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const sizes = new Map<string, number>();
    page.on('response', (response) => {
      if (response.request().resourceType() === 'image')
        void response.body().then(
          (b) => sizes.set(response.url(), b.length),
          () => undefined,
        );
    });
    await page.goto(server.url + '/');
    for (let y = 0; y <= (await page.evaluate(() => document.documentElement.scrollHeight)); y += 400) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(100);
    }
    await page.waitForLoadState('networkidle');
    const ratios = await page.locator('img').evaluateAll((imgs: HTMLImageElement[]) =>
      imgs
        .filter((img) => img.complete && img.naturalWidth > 0 && img.currentSrc.includes('/media/_img/'))
        .map((img) => {
          const box = img.getBoundingClientRect();
          // The file's width is in its name (naturalWidth is divided by the srcset candidate's density).
          const width = Number(/\/(\d+)\.\w+$/.exec(img.currentSrc)![1]);
          const height = (width * Number(img.getAttribute('height'))) / Number(img.getAttribute('width'));
          return (width * height) / (box.width * box.height * devicePixelRatio ** 2);
        }),
    );
    await context.close();
    const total = [...sizes.values()].reduce((a, b) => a + b, 0);
    const worst = Math.max(...ratios);
    console.log(
      `${sizes.size} image files, ${(total / 1e6).toFixed(2)} MB, target ≤ 1 MB: ${check(total <= 1e6, `home page images ${(total / 1e6).toFixed(2)} MB`)}`,
    );
    console.log(
      `largest file pixels / shown pixels ${worst.toFixed(2)}, target ≤ 2: ${check(worst <= 2, `an image at ${worst.toFixed(2)}× its shown pixels`)}\n`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

/** 4. Lighthouse's mobile profile on the photo site (bench/lighthouse.ts), and its layout shift. */
async function lighthouseScores(site: string): Promise<void> {
  console.log('4. Lighthouse, mobile profile, on the photo site');
  const report = join(work, 'lighthouse.json');
  const code = await new Promise<number | null>((resolve) =>
    spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, 'lighthouse.ts'),
        '--site',
        site,
        '--runs',
        '3',
        '--performance',
        '98',
        '--json',
        report,
      ],
      { stdio: 'inherit' },
    ).on('close', resolve),
  );
  const { results } = JSON.parse(await readFile(report, 'utf8')) as { results: { path: string; cls: number }[] };
  if (code !== 0) misses.push('Lighthouse below target (above)');
  for (const { path, cls } of results) if (cls > 0) misses.push(`${path}: cumulative layout shift ${cls}`);
  console.log(
    `cumulative layout shift ${results.map((r) => `${r.path} ${r.cls}`).join(', ')}: ${results.every((r) => r.cls === 0) ? 'holds' : 'MISSED'}\n`,
  );
}

/** 5. The peak memory of a build of about `photos` distinct photos, none encoded before, the client bundle cached. */
async function manyPhotos(photos: number): Promise<void> {
  // The synthetic site has about 0.275 images a page (backend/scale.ts): 3,630 pages for 1,000 photos.
  const scale = Math.ceil(photos * 3.63);
  console.log(`5. A cold build of a synthetic site of ${scale} pages whose ~${photos} images are distinct camera photos`);
  const manyBackend = await startScaledBackend(SITE, scale, { photos: true });
  const manySvgBackend = await startScaledBackend(SITE, scale);
  try {
    // The client bundle built first, into the same cache: rollup's own peak (issue 44) is not the photos'.
    await build(manySvgBackend, 'many-svg', 'many-cache');
    const many = await build(manyBackend, 'many', 'many-cache');
    const images = /\((\d+) images?: (\d+) encoded/.exec(many.stdout);
    console.log(
      `${images?.[1] ?? '?'} photos encoded in ${(many.ms / 1000).toFixed(1)} s, peak ${Math.round(many.peakMiB)} MiB, target ≤ 600 MiB: ${check(many.peakMiB <= 600, `peak ${Math.round(many.peakMiB)} MiB with ${images?.[1]} photos`)}\n`,
    );
  } finally {
    await manyBackend.close();
    await manySvgBackend.close();
  }
}
