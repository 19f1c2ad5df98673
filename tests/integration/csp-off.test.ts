import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, startPreview } from '../helpers/cli.ts';
import { listFiles } from '../helpers/tree.ts';
import { seedBundle } from '../helpers/bundle-seed.ts';

/**
 * The Content-Security-Policy is on by default (issue 16.4; tests/e2e/csp.spec.ts checks it in the
 * browser); `--no-csp` is the way to turn it off for a site whose CDN sets its own policy. Then no page
 * carries the tag, and `site preview`, whose header is read from the pages, sends none either.
 */
let out: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'site-csp-off-'));
  await seedBundle(join(dir, 'cache'));
  out = join(dir, 'dist');
  const result = await runCli(['build', '--no-csp', '--out', out, '--cache-dir', join(dir, 'cache'), '--quiet', '--no-report']);
  expect(result.code, result.stderr).toBe(0);
}, 180_000);

describe('--no-csp', () => {
  it("writes no page with the policy tag, and site preview sends no policy header but frame-ancestors 'none' (nosniff still)", async () => {
    const pages = (await listFiles(out)).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(100);
    for (const file of pages) expect(await readFile(join(out, file), 'utf8'), file).not.toContain('Content-Security-Policy');
    const preview = await startPreview(out);
    try {
      for (const path of ['/', '/news', '/no-such-page']) {
        const response = await fetch(preview.url + path);
        expect(response.headers.get('content-security-policy'), path).toBe("frame-ancestors 'none'");
        expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
    } finally {
      preview.stop();
    }
  }, 60_000);
});
