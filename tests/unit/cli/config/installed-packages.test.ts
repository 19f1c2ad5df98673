import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatorFingerprint } from '../../../../cli/build/generator-fingerprint.ts';
import { resolveConfig } from '../../../../cli/config/config.ts';
import { installedManifests } from '../../../../cli/config/installed-packages.ts';

/** A project with one declared dependency, `react`, installed, and npm's record of its installed tree. */
async function project(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'site-installed-'));
  await mkdir(join(root, 'node_modules/react'), { recursive: true });
  await writeFile(
    join(root, 'package.json'),
    JSON.stringify({ name: 'p', dependencies: { react: '19.0.0' }, devDependencies: { vitest: '4' } }),
  );
  await writeFile(join(root, 'node_modules/react/package.json'), JSON.stringify({ name: 'react', version: '19.0.0' }));
  await writeFile(
    join(root, 'node_modules/.package-lock.json'),
    JSON.stringify({ packages: { 'node_modules/scheduler': { version: '0.27.0' } } }),
  );
  return root;
}

describe('what says which packages are installed (the generator fingerprint and the client bundle key hash it)', () => {
  it("is npm's record of the installed tree and each declared dependency's package.json", async () => {
    expect(installedManifests(await project())).toEqual(['node_modules/.package-lock.json', 'node_modules/react/package.json']);
    // No package.json: the record alone.
    expect(installedManifests(await mkdtemp(join(tmpdir(), 'site-installed-')))).toEqual(['node_modules/.package-lock.json']);
  });

  it('changes the fingerprint when a package is installed unlike before, a dependency of a dependency too', async () => {
    const root = await project();
    const config = resolveConfig({}, {});
    const before = await generatorFingerprint(config, root);
    expect(await generatorFingerprint(config, root)).toBe(before);
    // `npm install scheduler@0.28.0 --no-save`: only npm's record of the tree says so.
    await writeFile(
      join(root, 'node_modules/.package-lock.json'),
      JSON.stringify({ packages: { 'node_modules/scheduler': { version: '0.28.0' } } }),
    );
    const transitive = await generatorFingerprint(config, root);
    expect(transitive).not.toBe(before);
    // A declared dependency's own package.json, edited past the record.
    await writeFile(join(root, 'node_modules/react/package.json'), JSON.stringify({ name: 'react', version: '19.0.0-local' }));
    expect(await generatorFingerprint(config, root)).not.toBe(transitive);
  });

  it('fails on a package.json that does not parse rather than name no dependency', async () => {
    const root = await project();
    await writeFile(join(root, 'package.json'), '{ "dependencies": ');
    expect(() => installedManifests(root)).toThrow(new RegExp(`^${join(root, 'package.json')} is not valid JSON`));
  });
});
