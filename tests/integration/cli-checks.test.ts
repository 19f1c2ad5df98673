import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSampleContent } from '../../backend/content/sample.ts';
import type { BuildReport } from '../../cli/report/report.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { snapshotTree } from '../helpers/tree.ts';

/**
 * A content fixture with problems: the first news article's body links to an article that does not
 * exist and to a section the about page does not have, and shows an image without alt text. It goes
 * to the embedded backend through CONTENT_OVERRIDES_FILE.
 */
async function brokenContent(): Promise<{ file: string; page: string }> {
  const article = loadSampleContent().news.find((n) => n.status === 'PUBLISHED' && n.image)!;
  const file = join(await mkdtemp(join(tmpdir(), 'site-checks-')), 'overrides.json');
  const body = `<p>Read <a href="/news/no-such-article">the follow-up</a>, the <a href="/about#no-such-section">history</a> and <a href="/about/people">the people</a>.</p><p><img src="${article.image!.url}"></p>`;
  await writeFile(file, JSON.stringify({ news: [{ slug: article.slug, body }] }));
  return { file, page: `/news/${article.slug}` };
}

describe('content checks on a build with a broken link', () => {
  let fixture: { file: string; page: string };
  let out: string;
  let result: CliResult;

  beforeAll(async () => {
    fixture = await brokenContent();
    out = join(await mkdtemp(join(tmpdir(), 'site-checks-')), 'site');
    result = await runCli(['build', '--out', out], { env: { CONTENT_OVERRIDES_FILE: fixture.file } });
  }, 240_000);

  it('builds, and warns about each problem on the page that has it', () => {
    expect(result.code).toBe(0);
    const warnings = result.stderr.trim().split('\n');
    expect(warnings).toEqual([
      `[check] warning: ${fixture.page}: links to /news/no-such-article, which is not a page, a redirect or a file of this build (link)`,
      `[check] warning: ${fixture.page}: links to /about#c-no-such-section, but /about has no element with id "c-no-such-section" (anchor)`,
      expect.stringMatching(
        new RegExp(`^\\[check\\] warning: ${fixture.page}: shows the image /media/\\S+ without alt text \\(image-alt\\)$`),
      ),
    ]);
    expect(result.stdout).toMatch(/^\[check\] \d+ pages checked: 3 warnings on 1 pages$/m);
    expect(result.stdout).toMatch(/^\[summary\] warnings {2}3 \(link 1, anchor 1, image-alt 1\); report: /m);
  });

  it('lists the warnings with their fix in build-report.json', async () => {
    const report = JSON.parse(await readFile(join(dirname(out), 'build-report.json'), 'utf8')) as BuildReport;
    expect(report.status).toBe('succeeded');
    expect(report.warnings.map((w) => [w.check, w.page, w.route])).toEqual([
      ['link', fixture.page, 'news-article'],
      ['anchor', fixture.page, 'news-article'],
      ['image-alt', fixture.page, 'news-article'],
    ]);
    for (const w of report.warnings) expect(w.fix).not.toBe('');
  });

  it('fails under --strict with every problem listed by page, and leaves the previous output as it was', async () => {
    const before = await snapshotTree(out);
    const strict = await runCli(['build', '--out', out, '--strict'], { env: { CONTENT_OVERRIDES_FILE: fixture.file } });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(
      '[ContentChecksFailed] 3 content problems on 1 page fail the build under --strict; the previous output was kept unchanged.',
    );
    expect(strict.stderr).toContain(
      `  - ${fixture.page} (route news-article, operation link check): links to /news/no-such-article, which is not a page, a redirect or a file of this build`,
    );
    expect(strict.stderr).toMatch(/^Hint: Fix each problem listed above/m);
    expect(await snapshotTree(out)).toEqual(before);
    const report = JSON.parse(await readFile(join(dirname(out), 'build-report.json'), 'utf8')) as BuildReport;
    expect(report).toMatchObject({ status: 'failed', strict: true, error: { code: 'ContentChecksFailed' } });
    expect(report.warnings).toHaveLength(3);
  }, 240_000);
});
