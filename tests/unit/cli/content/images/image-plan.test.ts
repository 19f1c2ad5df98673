import { describe, expect, it } from 'vitest';
import { derivativeWidths, parseDerivativeUrl, planDerivatives, resolvedFields } from '../../../../../cli/content/images/image-plan.ts';
import { DEFAULT_IMAGE_WIDTHS, type ImageSettings } from '../../../../../cli/content/images/image-settings.ts';
import { imageUrlAtLeast, srcsetOf } from '../../../../../runtime/shared/images.ts';

const settings: ImageSettings = {
  widths: DEFAULT_IMAGE_WIDTHS,
  formats: ['avif', 'webp'],
  fallbackWidth: 1200,
  maxPixels: 1e8,
  service: null,
};
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
  it('names every file after its key and width, with heights from the shown aspect ratio', () => {
    const plan = planDerivatives(KEY, { format: 'jpeg', width: 3000, height: 4000, hasAlpha: false }, settings);
    expect(plan.fallback).toEqual({ url: `/media/_img/${KEY}/1200.jpg`, name: '1200.jpg', format: 'jpeg', width: 1200, height: 1600 });
    expect(plan.sets.map((s) => s.format)).toEqual(['avif', 'webp']);
    expect(plan.sets[1]!.derivatives.map((d) => [d.url, d.width, d.height])).toEqual([
      [`/media/_img/${KEY}/320.webp`, 320, 427],
      [`/media/_img/${KEY}/480.webp`, 480, 640],
      [`/media/_img/${KEY}/640.webp`, 640, 853],
      [`/media/_img/${KEY}/800.webp`, 800, 1067],
      [`/media/_img/${KEY}/1080.webp`, 1080, 1440],
      [`/media/_img/${KEY}/1280.webp`, 1280, 1707],
      [`/media/_img/${KEY}/1600.webp`, 1600, 2133],
    ]);
    for (const d of plan.sets.flatMap((s) => s.derivatives)) expect(parseDerivativeUrl(d.url)).toEqual({ key: KEY, name: d.name });
  });

  it('keeps transparency in the fallback (PNG) and never enlarges a small source', () => {
    const plan = planDerivatives(KEY, { format: 'png', width: 500, height: 250, hasAlpha: true }, settings);
    expect(plan.fallback.url).toBe(`/media/_img/${KEY}/500.png`);
    expect(plan.sets[0]!.derivatives.map((d) => d.width)).toEqual([320, 480, 500]);
  });

  it('gives page data the real size, the fallback and a source per format, most preferred first', () => {
    const image = { format: 'jpeg' as const, width: 4000, height: 3000, hasAlpha: false };
    const fields = resolvedFields(planDerivatives(KEY, image, settings), image);
    expect(fields).toMatchObject({ url: `/media/_img/${KEY}/1200.jpg`, width: 4000, height: 3000 });
    expect(fields.sources!.map((s) => s.type)).toEqual(['image/avif', 'image/webp']);
    expect(srcsetOf(fields.sources![1]!, 640)).toBe(
      `/media/_img/${KEY}/320.webp 320w, /media/_img/${KEY}/480.webp 480w, /media/_img/${KEY}/640.webp 640w`,
    );
    expect(srcsetOf(fields.sources![1]!, 700)).toContain('800.webp 800w');
    expect(srcsetOf(fields.sources![1]!, 700)).not.toContain('1080.webp');
    expect(imageUrlAtLeast(fields, 300)).toBe(`/media/_img/${KEY}/320.webp`);
    expect(imageUrlAtLeast(fields, 5000)).toBe(`/media/_img/${KEY}/1600.webp`);
    expect(imageUrlAtLeast({ url: '/media/a.svg' }, 300)).toBe('/media/a.svg');
  });

  it('refuses derivative URLs it did not make', () => {
    expect(parseDerivativeUrl('/media/_img/../../assets/1.jpg')).toBeNull();
    expect(parseDerivativeUrl(`/media/_img/${KEY}/1.html`)).toBeNull();
    expect(parseDerivativeUrl(`/media/_img/${KEY}/x-1.webp`)).toBeNull();
    expect(parseDerivativeUrl('/media/news/a.jpg')).toBeNull();
  });
});
