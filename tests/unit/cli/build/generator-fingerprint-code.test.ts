import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatorFingerprint } from '../../../../cli/build/generator-fingerprint.ts';
import { resolveConfig } from '../../../../cli/config/config.ts';
import { tempDirPerTest } from '../../../helpers/temp-dir.ts';

async function put(root: string, file: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, file)), { recursive: true });
  await writeFile(join(root, file), content);
}

/**
 * An update in place keeps a page's bytes only while the code that made them is the same: an edit to
 * any file of the generator, the site, the shell or the dependencies must change the fingerprint
 * (cli/build/generator-fingerprint.ts).
 */
describe('the generator fingerprint over the code', () => {
  const dir = tempDirPerTest('fingerprint-code-');
  const config = resolveConfig({}, {});

  it.each([
    ['the site', 'site/routes/news.tsx'],
    ['a site component in a nested folder', 'site/components/cards/card.tsx'],
    ['the server-side generator', 'cli/render/render.tsx'],
    ['the client runtime', 'runtime/shared/contract.ts'],
    ['the document shell', 'templates/index.html'],
    ['the tool version', 'package.json'],
    ['the locked dependencies', 'package-lock.json'],
    ['an installed dependency', 'node_modules/react/package.json'],
  ])('changes with an edit to %s (%s)', async (_what, file) => {
    const root = dir();
    const files = [
      'site/routes/news.tsx',
      'site/components/cards/card.tsx',
      'cli/render/render.tsx',
      'runtime/shared/contract.ts',
      'templates/index.html',
      'package-lock.json',
      'node_modules/react/package.json',
    ];
    for (const name of files) await put(root, name, `// ${name}`);
    await put(root, 'package.json', JSON.stringify({ name: 'x', dependencies: { react: '19' } }));
    const before = await generatorFingerprint(config, root);
    expect(await generatorFingerprint(config, root)).toBe(before);
    await put(
      root,
      file,
      file === 'package.json' ? JSON.stringify({ name: 'x', version: '2', dependencies: { react: '19' } }) : '// edited',
    );
    expect(await generatorFingerprint(config, root)).not.toBe(before);
  });

  it('changes with an edit of the same size made at once, and with a file removed, asked again in the same process', async () => {
    // site live asks before every update; what it remembers of the last answer must never hide an edit.
    const root = dir();
    await put(root, 'package.json', '{}');
    await put(root, 'site/routes/news.tsx', '// aaaa');
    await put(root, 'site/routes/events.tsx', '// events');
    // Older than the file system's clock can blur (stamps of younger files are not remembered at all).
    await new Promise((resolve) => setTimeout(resolve, 2100));
    const first = await generatorFingerprint(config, root);
    // Asked again unchanged: the answer it remembers, with the files' stamps from now on.
    expect(await generatorFingerprint(config, root)).toBe(first);
    await put(root, 'site/routes/news.tsx', '// bbbb');
    const second = await generatorFingerprint(config, root);
    expect(second).not.toBe(first);
    await rm(join(root, 'site/routes/events.tsx'));
    const third = await generatorFingerprint(config, root);
    expect([first, second]).not.toContain(third);
    await put(root, 'site/routes/events.tsx', '// events');
    await put(root, 'site/routes/news.tsx', '// aaaa');
    expect(await generatorFingerprint(config, root)).toBe(first);
  });

  it('changes when a file of the site is added', async () => {
    const root = dir();
    await put(root, 'package.json', '{}');
    await put(root, 'site/routes/news.tsx', '// news');
    const before = await generatorFingerprint(config, root);
    await put(root, 'site/routes/events.tsx', '');
    expect(await generatorFingerprint(config, root)).not.toBe(before);
  });

  it('does not change with files outside the code: content, tests, docs', async () => {
    const root = dir();
    await put(root, 'package.json', '{}');
    await put(root, 'site/routes/news.tsx', '// news');
    const before = await generatorFingerprint(config, root);
    for (const file of ['tests/unit/x.test.ts', 'docs/cli.md', 'README.md', 'dist/index.html']) await put(root, file, 'x');
    expect(await generatorFingerprint(config, root)).toBe(before);
  });
});
