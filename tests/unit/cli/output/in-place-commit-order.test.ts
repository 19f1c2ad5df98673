import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitStagingChanges, createStagingDir } from '../../../../cli/output/output.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';

async function put(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), content);
  }
}

/**
 * latest.json is the clients' commit point: when it names a build, everything that build serves (its
 * meta above all, which clients read next) must already be in place (cli/output/output.ts).
 */
describe('an update in place', () => {
  const dir = tempDirPerTest('in-place-order-');

  it('moves in assets and media, then pages, then the build meta, and latest.json last', async () => {
    const out = join(dir(), 'site');
    await put(out, { '_assets/builds/latest.json': '{"id":"b1"}', '_assets/builds/meta/b1.json': '{}', 'index.html': 'home' });
    const staging = await createStagingDir(out);
    // Staged names chosen so that no alphabetical order gives the right one.
    await put(staging, {
      'zebra/index.html': 'z',
      '_assets/builds/meta/b2.json': '{"id":"b2"}',
      '_assets/builds/latest.json': '{"id":"b2"}',
      '_assets/app-2.js': 'js',
      'media/a.png': 'png',
      'a/index.html': 'a',
      '_assets/builds/manifest/b2.json': '{}',
    });
    const { written } = await commitStagingChanges(staging, out, []);
    expect(written).toEqual([
      '_assets/app-2.js',
      'media/a.png',
      'a/index.html',
      'zebra/index.html',
      '_assets/builds/manifest/b2.json',
      '_assets/builds/meta/b2.json',
      '_assets/builds/latest.json',
    ]);
    expect(JSON.parse(await readFile(join(out, '_assets/builds/meta/b2.json'), 'utf8'))).toEqual({ id: 'b2' });
    expect(JSON.parse(await readFile(join(out, '_assets/builds/latest.json'), 'utf8'))).toEqual({ id: 'b2' });
  });

  it('removes the pages that no longer exist even when latest.json is all this build changed', async () => {
    const out = join(dir(), 'site');
    await put(out, { '_assets/builds/latest.json': '{"id":"b1"}', 'news/gone/index.html': 'gone', 'index.html': 'home' });
    const staging = await createStagingDir(out);
    await put(staging, { '_assets/builds/latest.json': '{"id":"b2"}' });
    const result = await commitStagingChanges(staging, out, ['news/gone/index.html']);
    expect(result).toEqual({ written: ['_assets/builds/latest.json'], removed: ['news/gone/index.html'] });
    await expect(readFile(join(out, 'news/gone/index.html'))).rejects.toThrow(/ENOENT/);
  });
});
