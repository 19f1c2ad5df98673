import { describe, expect, it } from 'vitest';
import { derivativeWidths, parseDerivativeUrl, planDerivatives, resolvedFields } from '../../../../../cli/content/images/image-plan.ts';
import { DEFAULT_IMAGE_WIDTHS, type ImageSettings } from '../../../../../cli/content/images/image-settings.ts';
import { imageUrlAtLeast, srcsetOf } from '../../../../../runtime/shared/images.ts';

const settings: ImageSettings = { widths: DEFAULT_IMAGE_WIDTHS, formats: ['avif', 'webp'], fallbackWidth: 1200, maxPixels: 1e8, service: null };
const KEY = '0123456789abcdef0123';

describe('derivativeWidths', () => {
  it('never makes a file wider than its source', () => {
    expect(derivativeWidths(4000, [320, 640, 1600])).toEqual([320, 640, 1600]);
    expect(derivativeWidths(1000, [320, 640, 1600])).toEqual([320, 640, 1000]);
    expect(derivativeWidths(640, [320, 640, 1600])).toEqual([320, 640]);
    expect(derivativeWidths(200, [320, 640, 1600])).toEqual([200]);
  });
});

describe('planDerivatives', () => {
  it('names every file after the key and the source, with heights from the shown aspect ratio', () => {
    const plan = planDerivatives(KEY, '/media/news/Harbour%20at%20Dawn.JPG', { format: 'jpeg', width: 3000, height: 4000, hasAlpha: false }, settings);
    expect(plan.fallback).toEqual({ url: `/media/_img/${KEY}/harbour-at-dawn-1200.jpg`, name: '1200.jpg', format: 'jpeg', width: 1200, height: 1600 });
    expect(plan.sets.map((s) => s.format)).toEqual(['avif', 'webp']);
    expect(plan.sets[1]!.derivatives.map((d) => [d.width, d.height])).toEqual([
      [320, 427],
      [480, 640],
      [640, 853],
      [800, 1067],
      [1080, 1440],
      [1280, 1707],
      [1600, 2133],
    ]);
    for (const d of plan.sets.flatMap((s) => s.derivatives)) expect(parseDerivativeUrl(d.url)).toEqual({ key: KEY, name: d.name });
  });

  it('keeps transparency in the fallback (PNG) and names a source without a usable name "image"', () => {
    const plan = planDerivatives(KEY, '/media/x/%E2%9C%93.png', { format: 'png', width: 500, height: 250, hasAlpha: true }, settings);
    expect(plan.fallback.url).toBe(`/media/_img/${KEY}/image-500.png`);
    expect(plan.sets[0]!.derivatives.map((d) => d.width)).toEqual([320, 480, 500]);
  });

  it('gives page data the real size, the fallback and a source per format, most preferred first', () => {
    const image = { format: 'jpeg' as const, width: 4000, height: 3000, hasAlpha: false };
    const fields = resolvedFields(planDerivatives(KEY, '/media/a.jpg', image, settings), image);
    expect(fields).toMatchObject({ url: `/media/_img/${KEY}/a-1200.jpg`, width: 4000, height: 3000 });
    expect(fields.sources!.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    expect(srcsetOf(fields.sources![1]!, 640)).toBe(`/media/_img/${KEY}/a-320.webp 320w, /media/_img/${KEY}/a-480.webp 480w, /media/_img/${KEY}/a-640.webp 640w`);
    expect(srcsetOf(fields.sources![1]!, 700)).toContain('a-800.webp 800w');
    expect(srcsetOf(fields.sources![1]!, 700)).not.toContain('a-1080.webp');
    expect(imageUrlAtLeast(fields, 300)).toBe(`/media/_img/${KEY}/a-320.webp`);
    expect(imageUrlAtLeast(fields, 5000)).toBe(`/media/_img/${KEY}/a-1600.webp`);
    expect(imageUrlAtLeast({ url: '/media/a.svg' }, 300)).toBe('/media/a.svg');
  });

  it('names the cached files by width alone, so two uploads of the same photo share them', () => {
    const image = { format: 'jpeg' as const, width: 4000, height: 3000, hasAlpha: false };
    const a = planDerivatives(KEY, '/media/news/a.jpg', image, settings);
    const b = planDerivatives(KEY, '/media/people/b.jpg', image, settings);
    expect(a.sets[1]!.derivatives.map((d) => d.name)).toEqual(b.sets[1]!.derivatives.map((d) => d.name));
    expect(parseDerivativeUrl(b.sets[1]!.derivatives[0]!.url)).toEqual({ key: KEY, name: '320.webp' });
  });

  it('refuses derivative URLs it did not make', () => {
    expect(parseDerivativeUrl('/media/_img/../../assets/x-1.jpg')).toBeNull();
    expect(parseDerivativeUrl(`/media/_img/${KEY}/x-1.html`)).toBeNull();
    expect(parseDerivativeUrl('/media/news/a.jpg')).toBeNull();
  });
});
