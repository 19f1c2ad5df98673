import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_ID_PREFIX, contentFragment, contentId } from '../../runtime/shared/content-ids.ts';
import { APP_ELEMENT_ID, BOOT_ELEMENT_ID } from '../../runtime/shared/document-ids.ts';
import { runCli } from '../helpers/cli.ts';
import { HOSTILE_OVERRIDES } from '../helpers/hostile-ids.ts';
import { listFiles } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * Ids built from content can never stand in for the runtime's or a layout's own elements (issue 16.1).
 * The embedded backend serves content whose section ids, slugs, department names and rich-text ids are
 * the ids the runtime and the layouts use; the build must give every one of them the content prefix.
 */

/** Ids the page's own code owns: the runtime's and the layouts'. */
const OWN_IDS = [BOOT_ELEMENT_ID, APP_ELEMENT_ID, 'main', 'home-title', 'toc-title', 'citation-title', 'footer-contact-title'];
let dir: string;
let out: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'site-content-ids-'));
  await seedBundle(join(dir, 'cache'));
  out = join(dir, 'dist');
  const overrides = join(dir, 'overrides.json');
  await writeFile(overrides, JSON.stringify(HOSTILE_OVERRIDES));
  const result = await runCli(['build', '--out', out, '--cache-dir', join(dir, 'cache'), '--quiet', '--no-report'], {
    env: { CONTENT_OVERRIDES_FILE: overrides },
  });
  expect(result.code, result.stderr).toBe(0);
}, 180_000);

function idsOf(html: string): string[] {
  return [...html.matchAll(/\sid="([^"]*)"/g)].map((m) => m[1]!);
}

describe('ids from content', () => {
  it('gives the hostile sections, their titles and their rich text prefixed ids, and links the table of contents to them', async () => {
    const html = await readFile(join(out, 'about/about-large/index.html'), 'utf8');
    for (const own of [BOOT_ELEMENT_ID, APP_ELEMENT_ID, 'main', 'toc-title']) {
      expect(
        idsOf(html).filter((id) => id === own),
        own,
      ).toHaveLength(1);
      expect(html, own).toContain(`id="${contentId(own)}"`);
    }
    expect(html).toContain(`href="#${contentId(BOOT_ELEMENT_ID)}"`);
    expect(html).toContain(`href="#${contentId('main')}"`);
    expect(html).toContain(`href="#${contentId('history')}"`);
    // The boot data is the one JSON script, with the build's own (empty) endpoint.
    const boot = [...html.matchAll(/<script type="application\/json" id="__BOOT__">([\s\S]*?)<\/script>/g)];
    expect(boot).toHaveLength(1);
    expect(JSON.stringify((JSON.parse(boot[0]![1]!) as { config: unknown }).config)).not.toContain('steal');
  });

  it('never writes an element id from content that equals an id of the runtime or a layout, on any page', async () => {
    let pages = 0;
    for (const file of (await listFiles(out)).filter((f) => f.endsWith('.html'))) {
      const ids = idsOf(await readFile(join(out, file), 'utf8'));
      pages++;
      for (const own of OWN_IDS) expect(ids.filter((id) => id === own).length, `${file}: #${own}`).toBeLessThanOrEqual(1);
      // Content may repeat its own ids; the page's own ids stay unique.
      const own = ids.filter((id) => !id.startsWith(CONTENT_ID_PREFIX));
      expect(new Set(own).size, `${file}: duplicate ids of the page's own`).toBe(own.length);
    }
    expect(pages).toBeGreaterThan(100);
  });

  it('prefixes the ids built from slugs and names: people, courses, episodes, years and departments', async () => {
    const checks: [string, RegExp][] = [
      ['about/people/index.html', /id="(?:person|department)-/],
      ['courses/index.html', /id="course-/],
      ['about/podcast/index.html', /id="episode-/],
      ['publications/index.html', /id="year-/],
    ];
    for (const [file, unprefixed] of checks) {
      const html = await readFile(join(out, file), 'utf8');
      expect(html, file).not.toMatch(unprefixed);
      expect(html, file).toContain(`id="${CONTENT_ID_PREFIX}`);
    }
  });
});

describe('contentId and contentFragment', () => {
  it('always gives an anchor-like id behind the prefix, and the same id again for an id it made', () => {
    for (const name of ['__BOOT__', 'app', 'main', '', '--', 'Ünïcode name', 'a'.repeat(300), 'c-', 'c-x', '"><script>', 'x\u2028y']) {
      const id = contentId(name);
      expect(id, name).toMatch(/^c-[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(id.length, name).toBeLessThanOrEqual(64);
      expect(contentId(id), name).toBe(id);
    }
  });

  it('rewrites fragments of links into the site and leaves other sites alone', () => {
    expect(contentFragment('#main')).toBe('#c-main');
    expect(contentFragment('/about/about-large#history')).toBe('/about/about-large#c-history');
    expect(contentFragment('https://example.org/#main')).toBe('https://example.org/#main');
    expect(contentFragment('//example.org/#main')).toBe('//example.org/#main');
    expect(contentFragment('/news')).toBe('/news');
    expect(contentFragment('#')).toBe('#');
  });
});
