import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSampleContent } from '../../backend/content/sample.ts';
import { runCli, type CliResult } from '../helpers/cli.ts';
import { startFaultServer } from '../helpers/fault-server.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * Text from the content backend in the build's output: a CI runner reads a line that starts with `::` as
 * a workflow command (`::error …`, `::add-mask::…`, `::stop-commands::…`) and `##[…]` anywhere, and a
 * reader of the log believes a `[build]` line. Content with newlines, carriage returns and ANSI escape
 * sequences goes through every kind of warning and failure the build prints; none of it may start a line,
 * run as a command, or reach the terminal as a control character.
 */

const FORGED =
  '\n::error title=Forged::pwned\r\n::add-mask::Forged\n[build] wrote 0 pages Forged\u2028##[warning]Forged\u001b[2K\u001b]0;Forged\u0007';
const sample = loadSampleContent();
const [first, second] = sample.news.filter((n) => n.status === 'PUBLISHED' && n.image);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'log-injection-'));
  await seedBundle(join(dir, 'cache'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function buildWith(name: string, overrides: object, flags: string[] = []): Promise<CliResult> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(overrides));
  return runCli(['build', '--out', join(dir, name, 'site'), '--cache-dir', join(dir, 'cache'), '--no-report', '--no-search', ...flags], {
    env: { CONTENT_OVERRIDES_FILE: file },
  });
}

/** What a CI log would make of the output: the lines a runner splits it into (at \n, \r and the Unicode separators). */
function problems(result: CliResult): string[] {
  const output = `${result.stdout}\n${result.stderr}`;
  const found: string[] = [];
  // eslint-disable-next-line no-control-regex -- looking for control characters is the point
  if (/[\r\u001b\u0007\u2028\u2029\u0085]/.test(output)) found.push('a control character or line separator reached the terminal');
  for (const line of output.split(/\r\n|[\n\r\u2028\u2029\u0085]/)) {
    if (/^\s*::/.test(line)) found.push(`a workflow command: ${line}`);
    if (/##\w*\[/.test(line)) found.push(`a ##[ command: ${line}`);
    if (/^\s*\[build\] wrote 0 pages/.test(line)) found.push(`a forged line: ${line}`);
    if (/^\s*Forged/.test(line)) found.push(`content starting a line: ${line}`);
  }
  return found;
}

/** The lines that carry the content (its marker), for checking that each kind of warning was fed. */
const carrying = (result: CliResult): string[] =>
  `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => line.includes('Forged'));

describe('content in the build output', () => {
  it('starts no line and runs no command through any content warning', async () => {
    const body = `<p><a href="/news/no-such-article${FORGED}">gone</a> <a href="/about#section${FORGED}">there</a> <img src="/no-such-image${FORGED}.png"></p>`;
    const result = await buildWith(
      'warnings',
      {
        news: [
          { slug: first!.slug, title: `Same${FORGED}`, body },
          { slug: second!.slug, title: `Same${FORGED}` },
        ],
      },
      ['--verbose', '--payload-budget', '10000'],
    );
    expect(result.code, result.stderr).toBe(0);
    expect(problems(result)).toEqual([]);
    const lines = carrying(result);
    for (const check of ['link', 'image-alt', 'title'])
      expect(
        lines.some((l) => l.startsWith('[check] warning: ') && l.endsWith(`(${check})`)),
        check,
      ).toBe(true);
    expect(result.stderr).toMatch(/^\[check\] warning: .*\(payload-budget\)$/m);
  }, 120_000);

  it('starts no line and runs no command through the failures of a --strict build', async () => {
    const body = `<p><a href="/news/no-such-article${FORGED}">gone</a> <img src="/no-such-image${FORGED}.png"></p>`;
    const result = await buildWith(
      'strict',
      {
        news: [
          { slug: first!.slug, title: `Same${FORGED}`, body },
          { slug: second!.slug, title: `Same${FORGED}` },
        ],
      },
      ['--strict'],
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[ContentChecksFailed]');
    expect(problems(result)).toEqual([]);
    expect(carrying(result).filter((l) => l.startsWith('  - ')).length).toBeGreaterThanOrEqual(3);
  }, 120_000);

  it('starts no line and runs no command through a refused medium or an unsafe slug', async () => {
    const media = await buildWith('media', {
      news: [
        {
          slug: first!.slug,
          body: `<p><a href="/media/doc%0A::error%20title=Forged::x%0D${encodeURIComponent('\u001b[2K')}.html">doc</a></p>`,
        },
      ],
    });
    expect(media.code).toBe(1);
    expect(media.stderr).toContain('[PagesFailed]');
    expect(problems(media)).toEqual([]);
    expect(carrying(media).length).toBeGreaterThan(0);
    const slug = await buildWith('slug', { news: [{ ...first!, id: 'news-forged', slug: `forged${FORGED}` }] });
    expect(slug.code).toBe(1);
    expect(problems(slug)).toEqual([]);
    expect(carrying(slug).length).toBeGreaterThan(0);
  }, 120_000);

  it("starts no line and runs no command through the backend's own error messages", async () => {
    const faults = await startFaultServer();
    try {
      faults.setRules([{ operation: 'EditorialPage', fault: { kind: 'graphql-errors', message: `resolver said${FORGED}` } }]);
      const result = await runCli([
        'build',
        '--endpoint',
        faults.url,
        '--out',
        join(dir, 'backend', 'site'),
        '--cache-dir',
        join(dir, 'cache'),
        '--no-report',
        '--no-search',
        '--retries',
        '0',
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('[PagesFailed]');
      expect(problems(result)).toEqual([]);
      expect(carrying(result).length).toBeGreaterThan(0);
    } finally {
      await faults.close();
    }
  }, 120_000);

  it('starts no line and runs no command through what `site cache` lists: folder and file names from the cache', async () => {
    // Seeded with the run's client bundle, as a cache that has built before holds one: the listing shows it too.
    const cache = await seedBundle(join(dir, 'listed-cache'));
    // An output folder's name, recorded in the cache, and a file someone put there: both chosen by whoever writes the cache.
    const built = await runCli([
      'build',
      '--out',
      join(dir, `listed${FORGED}`),
      '--cache-dir',
      cache,
      '--no-report',
      '--no-search',
      '--quiet',
    ]);
    expect(built.code, built.stderr).toBe(0);
    await writeFile(join(cache, `planted${FORGED}`), '');
    for (const args of [['cache'], ['cache', 'prune', '--dry-run', '--max-states', '0']]) {
      const result = await runCli([...args, '--cache-dir', cache]);
      expect(result.code, result.stderr).toBe(0);
      expect(problems(result)).toEqual([]);
      expect(carrying(result).length).toBeGreaterThan(0);
    }
  }, 120_000);
});
