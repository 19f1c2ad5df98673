import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitStagingChanges, createStagingDir } from '../../../../../cli/output/output.ts';

/** An incremental build's commit: the previous output is updated in place with what changed. */

async function put(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, file)), { recursive: true });
    await writeFile(join(root, file), content);
  }
}

async function previousBuild(): Promise<string> {
  const out = join(await mkdtemp(join(tmpdir(), 'in-place-')), 'site');
  await put(out, {
    '_assets/builds/latest.json': '{"id":"b1","timestamp":1}',
    'index.html': 'home',
    'news/a/index.html': 'a',
    'news/a/_payload.json': '{"a":1}',
    'news/gone/index.html': 'gone',
    'news/gone/_payload.json': '{}',
    'feeds/news.xml': '<rss/>',
  });
  return out;
}

describe('commitStagingChanges', () => {
  it('moves in what differs, skips what is identical, removes what no longer exists, and writes latest.json last', async () => {
    const out = await previousBuild();
    const before = (await stat(join(out, 'index.html'))).mtimeMs;
    const staging = await createStagingDir(out);
    await put(staging, {
      'index.html': 'home',
      'news/a/index.html': 'a, edited',
      'news/b/index.html': 'b',
      '_assets/builds/latest.json': '{"id":"b1","timestamp":2}',
    });
    const result = await commitStagingChanges(staging, out, ['news/gone/index.html', 'news/gone/_payload.json', 'feeds/old.xml']);
    expect(result.written).toEqual(['news/a/index.html', 'news/b/index.html', '_assets/builds/latest.json']);
    expect(result.removed).toEqual(['news/gone/index.html', 'news/gone/_payload.json']);
    expect(await readFile(join(out, 'news/a/index.html'), 'utf8')).toBe('a, edited');
    expect(await readFile(join(out, 'news/a/_payload.json'), 'utf8')).toBe('{"a":1}');
    expect((await stat(join(out, 'index.html'))).mtimeMs).toBe(before);
    expect(await readdir(join(out, 'news'))).toEqual(['a', 'b']);
    expect(await readdir(dirname(out))).toEqual(['site']);
  });

  it('refuses a removal outside the output folder', async () => {
    const out = await previousBuild();
    await put(dirname(out), { 'keep.txt': 'mine' });
    const staging = await createStagingDir(out);
    await put(staging, { '_assets/builds/latest.json': '{}' });
    const result = await commitStagingChanges(staging, out, ['../keep.txt']);
    expect(result.removed).toEqual([]);
    expect(await readFile(join(dirname(out), 'keep.txt'), 'utf8')).toBe('mine');
  });
});
